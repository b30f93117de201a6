// Uploads through ImportSessions (real embedded MongoDB): the reader runs in a worker thread with
// a time and a memory limit, refusals are 400 sentences naming the limit, and nothing is stored.
import { EmbeddedMongo } from '@bahi/embedded-mongo';
import { MongoClient, type Db } from 'mongodb';
import { ImportError, ImportSessions, openTable, readInWorker, type ImportHandler } from '../src';
import { bookParts, zipInOrder } from './xlsx-fixtures';

let server: EmbeddedMongo;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  server = await EmbeddedMongo.start({ port: 0 });
  client = new MongoClient(server.uri);
  await client.connect();
  db = client.db('tabular_imports');
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const handler: ImportHandler<unknown, unknown> = {
  kind: 'customers',
  fields: [
    { key: 'name', label: 'Name', required: true },
    { key: 'mobile', label: 'Mobile' },
  ],
  matchBy: 'mobile',
  begin: async () => ({}),
  check: async (_ctx, rows) => rows.map((r) => ({ row: r.row, value: r.data })),
  apply: async () => ({ created: 0, updated: 0 }),
};

function sessions(opts: { readTimeMs?: number; readMemoryMb?: number } = {}) {
  return new ImportSessions(db, {
    inTransaction: (fn) => client.withSession((s) => s.withTransaction(() => fn(s))),
    maxRows: 100_000,
    ...opts,
  });
}

/** The upload's refusal (status and sentence), and that no session or row was stored. */
async function refused(s: ImportSessions, file: Buffer) {
  const err = await s.upload(1, handler, 'customers.csv', file).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImportError);
  expect(await db.collection('import_sessions').countDocuments()).toBe(0);
  expect(await db.collection('import_rows').countDocuments()).toBe(0);
  return { status: (err as ImportError).status, message: (err as ImportError).message };
}

const customers = (n: number, width = 60) => Buffer.from(`Name,Mobile,Address\n${Array.from({ length: n }, (_, i) => `Customer ${i},98${String(i).padStart(8, '0')},${'Lane '.repeat(width / 5)}${i}`).join('\n')}\n`);

describe('uploads', () => {
  it('stores a good file in batches and gives the preview', async () => {
    const s = sessions();
    await s.init();
    const up = await s.upload(1, handler, 'customers.csv', customers(1200));
    expect(up).toMatchObject({ format: 'csv', headers: ['Name', 'Mobile', 'Address'], total: 1200, mapping: { name: 0, mobile: 1 } });
    expect(up.preview[0]).toEqual({ row: 2, values: ['Customer 0', '9800000000', `${'Lane '.repeat(12)}0`] });
    expect(await db.collection('import_rows').countDocuments({ sessionId: up.id })).toBe(3);
    await db.collection('import_rows').deleteMany({});
    await db.collection('import_sessions').deleteMany({});
  });

  it('refuses a flood of blank lines with 400 (blank lines count toward the 100,000 rows)', async () => {
    expect(await refused(sessions(), Buffer.from(`Name,Mobile\n${'\n'.repeat(150_000)}Asha,9876500001\n`))).toEqual({
      status: 400,
      message: 'The file has more than 1,00,000 rows (blank lines count too); split it into smaller files.',
    });
  });

  it('stops a reader over its time limit and answers 400 naming the limit', async () => {
    // 100,000 rows of some 190 characters: seconds of reading, against a limit of 300 ms.
    expect(await refused(sessions({ readTimeMs: 300 }), customers(100_000, 160))).toEqual({
      status: 400,
      message: 'Reading this file took longer than 300 ms (the limit); split it into smaller files.',
    });
  });

  it('stops a reader over its memory limit and answers 400 naming the limit', async () => {
    // 200,000 different names (some 15 M characters) must all be held as XLSX shared strings.
    const strings = ['Name', ...Array.from({ length: 200_000 }, (_, i) => `Customer ${i} of Asha Traders, ${i % 97} MG Road, Pune ${411000 + (i % 50)}`)];
    const file = await zipInOrder(bookParts({ sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>', strings }));
    expect(await refused(sessions({ readMemoryMb: 16 }), file)).toEqual({
      status: 400,
      message: 'Reading this file needs more than 16 MB of memory (the limit); split it into smaller files.',
    });
    // The default limit (256 MB) reads it.
    const ok = await readInWorker(file);
    const rows = [];
    for await (const r of ok.rows) rows.push(r);
    expect(rows).toEqual([{ row: 2, values: [strings[1]] }]);
  });

  it("keeps the service's own thread free while a large file is read (timers stay on time)", async () => {
    const file = customers(100_000, 160);
    /** How late a 10 ms timer gets at worst while `read` runs. */
    const lateness = async (read: () => Promise<number>) => {
      let late = 0;
      let last = performance.now();
      const tick = setInterval(() => {
        const now = performance.now();
        late = Math.max(late, now - last - 10);
        last = now;
      }, 10);
      try {
        const t0 = performance.now();
        expect(await read()).toBe(100_000);
        // A timer that never ran during the read is as late as the time since it last ran.
        late = Math.max(late, performance.now() - last - 10);
        return { late: Math.round(late), ms: Math.round(performance.now() - t0) };
      } finally {
        clearInterval(tick);
      }
    };
    const count = async (t: { rows: AsyncIterable<unknown> }) => {
      let n = 0;
      for await (const _ of t.rows) n++;
      return n;
    };
    const worker = await lateness(async () => count(await readInWorker(file)));
    // The same file read in this thread holds every timer for the whole read.
    const here = await lateness(async () => count(await openTable(file, { maxRows: 100_000 })));
    console.log(`100,000 rows (${(file.length / 1048576).toFixed(1)} MB): in a worker ${worker.ms} ms, timers at most ${worker.late} ms late; in this thread ${here.ms} ms, timers ${here.late} ms late`);
    expect(worker.late).toBeLessThan(500);
    expect(here.late).toBeGreaterThan(worker.late);
  });
});
