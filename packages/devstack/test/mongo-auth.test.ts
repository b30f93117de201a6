import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
import { startStack, type MongoCredentials, type Stack } from '../src';

async function refusal(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MongoServerError) return err;
    throw err;
  }
  throw new Error('expected MongoDB to refuse');
}

async function withClient<T>(uri: string, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const c = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await c.connect();
    return await fn(c);
  } finally {
    await c.close();
  }
}

async function login(stack: Stack): Promise<number> {
  const res = await fetch(`${stack.gatewayUrl}/api/loginReact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@bahi.local', password: 'admin12345' }),
  });
  return res.status;
}

/** The MONGODB_URI a running process was given (Linux /proc). */
function processMongoUri(pid: number): string | undefined {
  const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return env.find((kv) => kv.startsWith('MONGODB_URI='))?.slice('MONGODB_URI='.length);
}

describe('startStack runs the embedded MongoDB with credentials', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-mongo-auth-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('generates the credentials once into the data dir, gives each service its own user, refuses anonymous clients, and reuses them on the next start', async () => {
    const credentialsFile = path.join(dataDir, 'mongo-credentials.json');
    let first: MongoCredentials;
    let stack = await startStack({ services: ['identity'], dataDir, logs: 'files' });
    try {
      expect(stack.mongoCredentialsFile).toBe(credentialsFile);
      expect(fs.statSync(credentialsFile).mode & 0o777).toBe(0o600);
      first = JSON.parse(fs.readFileSync(credentialsFile, 'utf8')) as MongoCredentials;
      expect(Object.keys(first.services).sort()).toEqual(['documents', 'identity', 'inventory', 'ledger', 'reports', 'sales']);
      expect(new Set([first.root.password, ...Object.values(first.services).map((l) => l.password)]).size).toBe(7);

      // The server's users file: keys only, never a password.
      const usersFile = fs.readFileSync(path.join(dataDir, 'mongo-users.json'), 'utf8');
      expect(fs.statSync(path.join(dataDir, 'mongo-users.json')).mode & 0o777).toBe(0o600);
      for (const l of [first.root, ...Object.values(first.services)]) expect(usersFile).not.toContain(l.password);

      // The identity process got its own user; the gateway none.
      const pids = stack.pids();
      const identityUri = processMongoUri(pids.identity!)!;
      expect(new URL(identityUri)).toMatchObject({ username: 'identity', hostname: '127.0.0.1', pathname: '/', search: '?authSource=admin' });
      expect(processMongoUri(pids.gateway!)).toBeUndefined();
      expect(await login(stack)).toBe(200);

      // The identity user reads its own database only.
      await withClient(identityUri, async (c) => {
        expect(await c.db('bahi_identity').collection('users').countDocuments({ email: 'admin@bahi.local' })).toBe(1);
        expect(await refusal(c.db('bahi_sales').collection('sales').findOne({}))).toMatchObject({ code: 13, codeName: 'Unauthorized' });
      });

      // Anonymous: hello and ping only.
      const port = new URL(stack.mongoUri).port;
      await withClient(`mongodb://127.0.0.1:${port}`, async (c) => {
        expect(await c.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
        expect(await refusal(c.db('bahi_identity').collection('users').findOne({}))).toMatchObject({ code: 13, errmsg: 'Command find requires authentication' });
      });

      // Stack.mongoUri is the root user's: it reaches every database.
      expect(new URL(stack.mongoUri).username).toBe('root');
      await withClient(stack.mongoUri, async (c) => {
        expect(await c.db('bahi_identity').collection('users').countDocuments({ email: 'admin@bahi.local' })).toBe(1);
      });
    } finally {
      await stack.stop();
    }

    stack = await startStack({ services: ['identity'], dataDir, logs: 'files' });
    try {
      expect(JSON.parse(fs.readFileSync(credentialsFile, 'utf8'))).toEqual(first);
      expect(processMongoUri(stack.pids().identity!)).toContain(`identity:${encodeURIComponent(first.services.identity!.password)}@`);
      expect(await login(stack)).toBe(200);
    } finally {
      await stack.stop();
    }
  });
});
