import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Db } from 'mongodb';
import type { Connection } from 'mongoose';
import { AppModule } from './app.module';
import { replayDeadLetters } from './dead-letters';
import { Projector } from './projector';

/**
 * `npm run reports:replay-dead`: after a fix (a new release, or a stored event corrected), tries
 * every event kept in dead_letters again; those that now apply are applied (once, whatever a
 * running reports service does meanwhile) and removed, the rest keep their new error.
 */
async function main() {
  process.env.REPORTS_CONSUME = '0';
  const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error', 'warn'] });
  const db = app.get<Connection>(getConnectionToken()).db as unknown as Db;
  const r = await replayDeadLetters(db, app.get(Projector));
  process.stdout.write(`Dead letters replayed: ${r.applied} applied, ${r.already} applied before, ${r.ignored} not used by the reports, ${r.failed} still failing.\n`);
  await app.close();
}

main().catch((err) => {
  process.stderr.write(`Replaying the dead letters failed: ${(err as Error).message}\n`);
  process.exit(1);
});
