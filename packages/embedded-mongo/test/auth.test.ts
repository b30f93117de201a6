import { execFileSync } from 'node:child_process';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { EmbeddedMongo, readUsersFile, saslprep } from '../src';
import { tempDir } from './helpers';

const ROOT_PASSWORD = 'root-pass-0123';
const SALES_PASSWORD = 's@les:pass/word';
const LEDGER_PASSWORD = 'ledger-pass';

let server: EmbeddedMongo;
const clients: MongoClient[] = [];

function uri(user: string, password: string, db = ''): string {
  return `mongodb://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${server.port}/${db}?authSource=admin`;
}

async function connect(url: string): Promise<MongoClient> {
  const c = new MongoClient(url, { serverSelectionTimeoutMS: 3000 });
  clients.push(c);
  await c.connect();
  return c;
}

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MongoServerError) return err;
    throw err;
  }
  throw new Error('expected the server to refuse');
}

beforeAll(async () => {
  server = await EmbeddedMongo.start({
    port: 0,
    auth: {
      users: [
        { user: 'root', password: ROOT_PASSWORD, roles: ['root'] },
        { user: 'sales', password: SALES_PASSWORD, roles: [{ role: 'readWrite', db: 'bahi_sales' }] },
        { user: 'ledger', password: LEDGER_PASSWORD, roles: [{ role: 'readWrite', db: 'bahi_ledger' }] },
        // RFC 4013's example: U+2168 (ROMAN NUMERAL NINE) prepares to "IX".
        { user: 'roman', password: '\u2168', roles: [{ role: 'readWrite', db: 'bahi_roman' }] },
      ],
    },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.stop();
});

describe('SCRAM-SHA-256 with the mongodb driver', () => {
  it('connects with user and password (authSource admin) and inserts, finds and commits a transaction', async () => {
    const c = await connect(uri('sales', SALES_PASSWORD));
    const col = c.db('bahi_sales').collection('sales');
    await col.insertOne({ companyId: 1, id: 1, total: '10.00' });
    expect(await col.findOne({ id: 1 }, { projection: { _id: 0 } })).toEqual({ companyId: 1, id: 1, total: '10.00' });
    const session = c.startSession();
    try {
      await session.withTransaction(async () => {
        await col.insertOne({ companyId: 1, id: 2 }, { session });
        await col.updateOne({ id: 1 }, { $set: { paid: true } }, { session });
      });
    } finally {
      await session.endSession();
    }
    expect(await col.countDocuments({ companyId: 1 })).toBe(2);
    expect(await col.findOne({ id: 1 })).toMatchObject({ paid: true });
    const status = await c.db('admin').command({ connectionStatus: 1 });
    expect(status.authInfo.authenticatedUsers).toEqual([{ user: 'sales', db: 'admin' }]);
  });

  it('runs saslStart and saslContinue without skipEmptyExchange (RFC 5802 by hand) and then authorizes the connection', async () => {
    // One pooled connection, so the conversation and the find run on the same socket.
    const c = await connect(`mongodb://127.0.0.1:${server.port}/?maxPoolSize=1`);
    const admin = c.db('admin');
    const clientNonce = randomBytes(18).toString('base64');
    const clientFirstBare = `n=sales,r=${clientNonce}`;
    const start = await admin.command({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: Buffer.from(`n,,${clientFirstBare}`), autoAuthorize: 1 });
    expect(start).toMatchObject({ conversationId: 1, done: false, ok: 1 });
    const serverFirst = Buffer.from(start.payload.buffer).toString('utf8');
    const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
    expect(attrs.r.startsWith(clientNonce)).toBe(true);
    expect(Number(attrs.i)).toBe(15000);
    const salted = pbkdf2Sync(SALES_PASSWORD, Buffer.from(attrs.s, 'base64'), Number(attrs.i), 32, 'sha256');
    const clientKey = createHmac('sha256', salted).update('Client Key').digest();
    const storedKey = createHash('sha256').update(clientKey).digest();
    const withoutProof = `c=biws,r=${attrs.r}`;
    const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
    const signature = createHmac('sha256', storedKey).update(authMessage).digest();
    const proof = Buffer.from(clientKey.map((b, i) => b ^ signature[i]!)).toString('base64');
    const second = await admin.command({ saslContinue: 1, conversationId: 1, payload: Buffer.from(`${withoutProof},p=${proof}`) });
    const serverSignature = createHmac('sha256', createHmac('sha256', salted).update('Server Key').digest()).update(authMessage).digest();
    expect(second).toMatchObject({ conversationId: 1, done: false, ok: 1 });
    expect(Buffer.from(second.payload.buffer).toString('utf8')).toBe(`v=${serverSignature.toString('base64')}`);
    // Not authenticated until the empty final exchange.
    expect(await serverError(c.db('bahi_sales').collection('sales').findOne({}))).toMatchObject({ code: 13 });
    const last = await admin.command({ saslContinue: 1, conversationId: 1, payload: Buffer.alloc(0) });
    expect(last).toMatchObject({ conversationId: 1, done: true, ok: 1 });
    expect(await c.db('bahi_sales').collection('sales').countDocuments({ companyId: 1 })).toBe(2);
  });

  it('refuses a replayed or tampered proof with AuthenticationFailed', async () => {
    const c = await connect(`mongodb://127.0.0.1:${server.port}/?maxPoolSize=1`);
    const admin = c.db('admin');
    const start = await admin.command({ saslStart: 1, mechanism: 'SCRAM-SHA-256', payload: Buffer.from('n,,n=sales,r=abc'), options: { skipEmptyExchange: true } });
    const nonce = Buffer.from(start.payload.buffer).toString('utf8').split(',')[0]!.slice(2);
    const bad = await serverError(admin.command({ saslContinue: 1, conversationId: 1, payload: Buffer.from(`c=biws,r=${nonce},p=${Buffer.alloc(32).toString('base64')}`) }));
    expect(bad).toMatchObject({ code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' });
    expect(await serverError(admin.command({ saslContinue: 1, conversationId: 1, payload: Buffer.alloc(0) }))).toMatchObject({ code: 17 });
    expect(await serverError(admin.command({ saslStart: 1, mechanism: 'SCRAM-SHA-1', payload: Buffer.from('n,,n=sales,r=abc') }))).toMatchObject({ code: 334 });
    expect(await serverError(c.db('bahi_sales').collection('sales').findOne({}))).toMatchObject({ code: 13 });
  });

  it('applies SASLprep to the password as the driver does', async () => {
    expect(saslprep('\u2168')).toBe('IX');
    expect(saslprep('a\u00A0b\u00AD')).toBe('a b');
    const c = await connect(uri('roman', 'IX'));
    await c.db('bahi_roman').collection('x').insertOne({ a: 1 });
    const d = await connect(uri('roman', '\u2168'));
    expect(await d.db('bahi_roman').collection('x').countDocuments({})).toBe(1);
  });

  it('lets mongoose connect with credentials and save and read documents', async () => {
    const conn = await mongoose.createConnection(`mongodb://127.0.0.1:${server.port}`, {
      dbName: 'bahi_sales',
      user: 'sales',
      pass: SALES_PASSWORD,
      authSource: 'admin',
      serverSelectionTimeoutMS: 3000,
    }).asPromise();
    try {
      const Thing = conn.model('Thing', new Schema({ companyId: Number, name: String }));
      await Thing.init();
      await Thing.create({ companyId: 7, name: 'चावल' });
      expect(await Thing.findOne({ companyId: 7 }).lean()).toMatchObject({ name: 'चावल' });
      expect(await conn.db!.admin().ping()).toMatchObject({ ok: 1 });
    } finally {
      await conn.close();
    }
  });
});

describe('refusals', () => {
  it('answers Unauthorized (13) to a client without credentials, but hello and ping work', async () => {
    const c = await connect(`mongodb://127.0.0.1:${server.port}`);
    expect(await c.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(await c.db('admin').command({ hello: 1 })).toMatchObject({ isWritablePrimary: true, ok: 1 });
    const find = await serverError(c.db('bahi_sales').collection('sales').findOne({}));
    expect(find).toMatchObject({ code: 13, codeName: 'Unauthorized', errmsg: 'Command find requires authentication' });
    const insert = await serverError(c.db('bahi_sales').collection('sales').insertOne({ x: 1 }));
    expect(insert).toMatchObject({ code: 13, codeName: 'Unauthorized', errmsg: 'Command insert requires authentication' });
    expect(await serverError(c.db('admin').command({ listDatabases: 1 }))).toMatchObject({ code: 13 });
    const root = await connect(uri('root', ROOT_PASSWORD));
    expect(await root.db('bahi_sales').collection('sales').countDocuments({ x: 1 })).toBe(0);
  });

  it('answers AuthenticationFailed (18) to a wrong password and to an unknown user', async () => {
    const wrong = await serverError(connect(uri('sales', 'not-the-password')));
    expect(wrong).toMatchObject({ code: 18, codeName: 'AuthenticationFailed', errmsg: 'Authentication failed.' });
    const unknown = await serverError(connect(uri('nobody', 'whatever')));
    expect(unknown).toMatchObject({ code: 18, codeName: 'AuthenticationFailed' });
  });

  it('keeps a service user to its own database; root reaches every one', async () => {
    const ledger = await connect(uri('ledger', LEDGER_PASSWORD));
    await ledger.db('bahi_ledger').collection('payments').insertOne({ companyId: 1, amount: '5.00' });
    const read = await serverError(ledger.db('bahi_sales').collection('sales').findOne({}));
    expect(read).toMatchObject({ code: 13, codeName: 'Unauthorized' });
    expect(read.message).toMatch(/^not authorized on bahi_sales to execute command \{ find: "sales"/);
    const write = await serverError(ledger.db('bahi_sales').collection('sales').insertOne({ stolen: true }));
    expect(write).toMatchObject({ code: 13 });
    const merge = await serverError(
      ledger.db('bahi_ledger').collection('payments').aggregate([{ $merge: { into: { db: 'bahi_sales', coll: 'sales' } } }]).toArray(),
    );
    expect(merge).toMatchObject({ code: 13 });
    expect(await serverError(ledger.db('bahi_ledger').dropDatabase())).toMatchObject({ code: 13 });
    // Nor can it close another service's cursor by its id from its own database.
    const sales = await connect(uri('sales', SALES_PASSWORD));
    await sales.db('bahi_sales').collection('lines').insertMany(Array.from({ length: 5 }, (_, i) => ({ i })));
    const opened = await sales.db('bahi_sales').command({ find: 'lines', batchSize: 2 });
    const killed = await ledger.db('bahi_ledger').command({ killCursors: 'payments', cursors: [opened.cursor.id] });
    expect(killed.cursorsKilled).toEqual([]);
    const more = await sales.db('bahi_sales').command({ getMore: opened.cursor.id, collection: 'lines' });
    expect(more.cursor.nextBatch).toHaveLength(3);
    expect(await serverError(ledger.db('admin').command({ listDatabases: 1 }))).toMatchObject({ code: 13 });
    const root = await connect(uri('root', ROOT_PASSWORD));
    expect(await root.db('bahi_sales').collection('sales').countDocuments({ stolen: true })).toBe(0);
    expect(await root.db('bahi_ledger').collection('payments').countDocuments({})).toBe(1);
  });
});

describe('stored users', () => {
  const cli = (args: string[], input?: string) =>
    execFileSync(process.execPath, [path.join(__dirname, 'fixtures/run-ts.js'), 'src/cli.ts', ...args], { input, encoding: 'utf8', cwd: path.join(__dirname, '..') });

  it('hash-user prints an entry without the password, and a server started from that file accepts it', async () => {
    const tmp = tempDir();
    try {
      const entry = JSON.parse(cli(['hash-user', 'auditor', 'root'], 'audit-pass-42\n')) as Record<string, unknown>;
      const file = path.join(tmp.dir, 'users.json');
      fs.writeFileSync(file, JSON.stringify({ users: [entry] }));
      const text = fs.readFileSync(file, 'utf8');
      expect(text).not.toContain('audit-pass-42');
      expect(entry).toMatchObject({ user: 'auditor', db: 'admin', roles: [{ role: 'root', db: 'admin' }] });
      expect(Object.keys((entry.credentials as Record<string, object>)['SCRAM-SHA-256']).sort()).toEqual(['iterationCount', 'salt', 'serverKey', 'storedKey']);
      expect((entry.credentials as Record<string, { iterationCount: number }>)['SCRAM-SHA-256'].iterationCount).toBe(15000);
      const other = await EmbeddedMongo.start({ port: 0, usersFile: file });
      try {
        const c = new MongoClient(`mongodb://auditor:audit-pass-42@127.0.0.1:${other.port}/?authSource=admin`, { serverSelectionTimeoutMS: 3000 });
        try {
          await c.connect();
          expect(await c.db('bahi_sales').collection('sales').countDocuments({})).toBe(0);
        } finally {
          await c.close();
        }
      } finally {
        await other.stop();
      }
    } finally {
      tmp.remove();
    }
  });

  it('refuses a users file that holds a password', () => {
    const tmp = tempDir();
    try {
      const file = path.join(tmp.dir, 'users.json');
      fs.writeFileSync(file, JSON.stringify({ users: [{ user: 'x', password: 'plain', roles: ['root'] }] }));
      expect(() => readUsersFile(file)).toThrow(/holds a password for x/);
    } finally {
      tmp.remove();
    }
  });
});
