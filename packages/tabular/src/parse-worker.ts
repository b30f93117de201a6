// The worker thread of `readInWorker`: reads one upload and hands its rows over a batch at a
// time, waiting for the service to ask for more (so neither side holds the whole sheet).
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadLimits } from './limits';
import { openTable, TabularError } from './read';

const port = parentPort!;
const more = () => new Promise<void>((resolve) => port.once('message', () => resolve()));
const BATCH_ROWS = 500;
const BATCH_CHARS = 1024 * 1024;

// On Linux the nice value is per thread (setpriority(2), BUGS): this thread yields the CPU to
// the service's own thread and to the other processes, so a parse never slows their calls.
if (process.platform === 'linux') {
  try {
    os.setPriority(0, 10);
  } catch {
    /* not allowed: read at the normal priority */
  }
}

async function main() {
  const { bytes, limits } = workerData as { bytes: Uint8Array; limits: Partial<ReadLimits> };
  try {
    const t = await openTable(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits);
    port.postMessage({ type: 'head', format: t.format, headers: t.headers, headerRow: t.headerRow });
    await more();
    let rows: { row: number; values: string[] }[] = [];
    let chars = 0;
    for await (const r of t.rows) {
      rows.push(r);
      for (const v of r.values) chars += v.length;
      if (rows.length >= BATCH_ROWS || chars >= BATCH_CHARS) {
        port.postMessage({ type: 'rows', rows });
        rows = [];
        chars = 0;
        await more();
      }
    }
    port.postMessage({ type: 'end', rows });
  } catch (err) {
    port.postMessage({ type: 'error', user: err instanceof TabularError, message: (err as Error).message });
  }
}

void main();
