import path from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { TableRow } from './csv';
import { TabularError, type ReadLimits } from './limits';
import type { OpenTable, TableFormat } from './read';

export interface WorkerReadOptions extends Partial<ReadLimits> {
  /** Time the reader may work on one file (waiting for the caller to take rows does not count). */
  timeLimitMs?: number;
  /** The reader's heap; past it the worker is stopped. */
  memoryLimitMb?: number;
}

export const DEFAULT_TIME_LIMIT_MS = 60_000;
export const DEFAULT_MEMORY_LIMIT_MB = 256;
/** Files read at once per process; a further upload waits for a reader (memory stays bounded). */
const READERS = 2;

let busy = 0;
const waiting: (() => void)[] = [];
async function slot(): Promise<() => void> {
  if (busy >= READERS) await new Promise<void>((resolve) => waiting.push(resolve));
  else busy++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
}

/** The worker's script: the built file, or (under the tests, which run the TypeScript) the source through swc. */
function startWorker(workerData: unknown, resourceLimits: ResourceLimits, transferList: ArrayBuffer[]): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(path.join(__dirname, 'parse-worker.js'), { workerData, resourceLimits, transferList });
  const boot = `
    const fs = require('node:fs');
    const { workerData } = require('node:worker_threads');
    const swc = require(workerData.swc);
    require.extensions['.ts'] = (m, file) => m._compile(swc.transformSync(fs.readFileSync(file, 'utf8'), { filename: file, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, file);
    require(workerData.entry);`;
  const data = { ...(workerData as object), swc: require.resolve('@swc/core'), entry: path.join(__dirname, 'parse-worker.ts') };
  return new Worker(boot, { eval: true, workerData: data, resourceLimits, transferList });
}

type Msg = { type: 'head'; format: TableFormat; headers: string[]; headerRow: number } | { type: 'rows' | 'end'; rows: TableRow[] } | { type: 'error'; user: boolean; message: string };

/**
 * `openTable` in a worker thread with a time and a memory limit: a file that takes too long or
 * too much memory to read stops its worker and is refused with a sentence naming the limit, and
 * the service's own thread (every other company's calls) never waits on a parse. Call `close()`
 * when done (it also runs when the rows end or fail).
 */
export async function readInWorker(input: Buffer, opts: WorkerReadOptions = {}): Promise<OpenTable & { close(): Promise<void> }> {
  const { timeLimitMs = DEFAULT_TIME_LIMIT_MS, memoryLimitMb = DEFAULT_MEMORY_LIMIT_MB, ...limits } = opts;
  const release = await slot();
  // The worker gets its own copy of the bytes (a transfer, not another copy on its side).
  const bytes = new Uint8Array(input);
  let worker: Worker;
  try {
    worker = startWorker({ bytes, limits }, { maxOldGenerationSizeMb: memoryLimitMb, maxYoungGenerationSizeMb: Math.min(32, Math.max(4, memoryLimitMb / 8)), stackSizeMb: 4 }, [bytes.buffer]);
  } catch (err) {
    release();
    throw err;
  }
  let spent = 0;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    release();
    await worker.terminate();
  };
  const seconds = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(1)} seconds` : `${ms} ms`);
  /** The worker's next message; its time counts against the limit. */
  const receive = () =>
    new Promise<Msg>((resolve, reject) => {
      const t0 = performance.now();
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        spent += performance.now() - t0;
      };
      const onMessage = (m: Msg) => {
        done();
        resolve(m);
      };
      const onError = (err: Error & { code?: string }) => {
        done();
        if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') reject(new TabularError(`Reading this file needs more than ${memoryLimitMb} MB of memory (the limit); split it into smaller files.`));
        else reject(err);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`The file reader stopped (exit code ${code}).`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new TabularError(`Reading this file took longer than ${seconds(timeLimitMs)} (the limit); split it into smaller files.`));
      }, Math.max(0, timeLimitMs - spent));
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  const fromWorker = async (): Promise<Msg> => {
    try {
      const m = await receive();
      if (m.type === 'error') throw m.user ? new TabularError(m.message) : new Error(m.message);
      return m;
    } catch (err) {
      await close();
      throw err;
    }
  };
  const head = await fromWorker();
  if (head.type !== 'head') throw new Error('The file reader answered out of turn.');
  async function* rows(): AsyncGenerator<TableRow> {
    try {
      for (;;) {
        worker.postMessage('more');
        const m = await fromWorker();
        if (m.type === 'head') throw new Error('The file reader answered out of turn.');
        if (m.type !== 'error') yield* m.rows;
        if (m.type === 'end') return;
      }
    } finally {
      await close();
    }
  }
  return { format: head.format, headers: head.headers, headerRow: head.headerRow, rows: rows(), close };
}
