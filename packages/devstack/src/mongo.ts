export interface MongoHandle {
  uri: string;
  stop(): Promise<void>;
}

/** The part of @bahi/embedded-mongo used here; loaded lazily so the rest of devstack works without it. */
interface EmbeddedMongoModule {
  EmbeddedMongo: {
    start(opts: { port?: number; dbPath?: string }): Promise<{ uri: string; stop(): Promise<void> }>;
  };
}

/**
 * MONGODB_URI when set (real MongoDB), otherwise the embedded server in this process,
 * in memory unless `dbPath` is given.
 */
export async function startMongo(opts: { port?: number; dbPath?: string } = {}): Promise<MongoHandle> {
  if (process.env.MONGODB_URI) return { uri: process.env.MONGODB_URI, stop: async () => {} };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { EmbeddedMongo } = require('@bahi/embedded-mongo') as EmbeddedMongoModule;
  const server = await EmbeddedMongo.start({ port: opts.port ?? 0, dbPath: opts.dbPath });
  return { uri: server.uri, stop: () => server.stop() };
}
