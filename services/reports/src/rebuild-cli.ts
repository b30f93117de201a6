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
  await consumers.rebuild();
  await consumers.caughtUp();
  const st = await consumers.status();
  process.stdout.write(`Reports rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${st.seen} events projected.\n`);
  await app.close();
}

main().catch((err) => {
  process.stderr.write(`Reports rebuild failed: ${(err as Error).message}\n`);
  process.exit(1);
});
