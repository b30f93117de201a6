import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { Consumers } from './consumers';

/**
 * `npm run reports:rebuild`: rebuilds the read model from zero (the owners' history, then the
 * streams from their first message) and exits once the consumers have caught up. A running
 * reports service carries on: its consumers are recreated and every event counts once.
 */
async function main() {
  process.env.REPORTS_CONSUME = '0';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  const consumers = app.get(Consumers);
  const t0 = Date.now();
  // The consumers are recreated but left to the running reports service, which replays the
  // streams; with no service running (nothing moves for a few seconds) this command replays them.
  await consumers.rebuild({ consume: false });
  const pending = async () => Object.values((await consumers.status()).streams).reduce((a, x) => a + (x && x !== 'no stream' ? x.pending + x.ackPending : 0), 0);
  const first = await pending();
  let moved = first === 0;
  for (let i = 0; i < 25 && !moved; i++) {
    await new Promise((r) => setTimeout(r, 200));
    moved = (await pending()) < first;
  }
  if (!moved) await consumers.startConsumers();
  await consumers.caughtUp();
  const st = await consumers.status();
  const upTo = Object.entries(st.checkpoints).map(([stream, seq]) => `${stream} ${seq}`).join(', ') || 'none';
  // Events this command applied (the history, and the streams when it replayed them itself).
  const seen = consumers.applied;
  process.stdout.write(`Reports rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${seen} events projected.\n`);
  process.stdout.write(`Streams applied up to: ${upTo}; dead letters: ${st.deadLetters}.\n`);
  await app.close();
}

main().catch((err) => {
  process.stderr.write(`Reports rebuild failed: ${(err as Error).message}\n`);
  process.exit(1);
});
