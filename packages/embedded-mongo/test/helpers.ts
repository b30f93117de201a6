import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongo, type EmbeddedMongoOptions } from '../src';

export interface Harness {
  server: EmbeddedMongo;
  client: MongoClient;
  stop(): Promise<void>;
}

/** A fresh in-memory (or `dbPath`) server on a free port with a connected driver. */
export async function startHarness(opts: EmbeddedMongoOptions = {}): Promise<Harness> {
  const server = await EmbeddedMongo.start({ port: 0, ...opts });
  const client = await MongoClient.connect(server.uri, { serverSelectionTimeoutMS: 5000 });
  return {
    server,
    client,
    async stop() {
      await client.close();
      await server.stop();
    },
  };
}

export function tempDir(prefix = 'embedded-mongo-test-'): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
