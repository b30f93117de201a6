// Projection lag while cashiers sell, shared by reports.bench.mjs (its lag part) and the counter
// matrix (services/sales/bench/counter-matrix.bench.mjs: reports beside the counter).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Today in India (the services' business date). */
export const todayIST = () => new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);

/**
 * Stops and starts one service of a stack started with `restart: false` (the supervisor would
 * start it again first): the process as devstack started it (its command line, environment and
 * working directory, from /proc), its health URL to know when it is down or serving.
 */
export function processSwitch({ pid, url, logFile }) {
  const environ = Object.fromEntries(fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
  let child = null;
  let current = pid;
  const health = () => fetch(`${url}/health`).then((r) => r.ok, () => false);
  return {
    /** The running process's id, or null while stopped. */
    pid: () => current,
    async stop() {
      if (current === null) return;
      if (child) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
        child = null;
      } else process.kill(current, 'SIGTERM');
      current = null;
      for (let i = 0; i < 100 && (await fetch(`${url}/health`).then(() => true, () => false)); i++) await sleep(100);
    },
    async start() {
      if (current !== null) return;
      fs.mkdirSync(path.dirname(logFile), { recursive: true }); // test-results/logs may have been cleared meanwhile
      const log = fs.openSync(logFile, 'a');
      child = spawn(cmdline[0], cmdline.slice(1), { cwd, env: environ, stdio: ['ignore', log, log] });
      current = child.pid;
      for (let i = 0; !(await health()); i++) {
        if (i > 600) throw new Error(`${path.basename(logFile)}: the process did not come back`);
        await sleep(100);
      }
    },
    kill() {
      child?.kill('SIGTERM');
    },
  };
}

/**
 * The sales register as a manager watching today's bills sees it: `poll()` reads its last pages
 * (100 bills a page; light enough for every 100 ms) and notes when each sale was first seen;
 * `watch()` polls every 100 ms until the returned stop function is called; `waitAll(ids)` reads
 * every page until all those sales are there (the catch-up after reports was stopped).
 */
export function registerWatcher(call, token, date = todayIST()) {
  let count = 0;
  const firstSeen = new Map();
  const polls = [];
  const page = async (p) => {
    const reg = await call('GET', `/reports/sales-register?from=${date}&to=${date}&page=${p}`, token);
    count = Math.max(count, reg.totals.count);
    return reg.rows.map((r) => r.saleId);
  };
  const poll = async () => {
    const t = Date.now();
    const last = Math.max(0, Math.floor((count - 1) / 100));
    const ids = [];
    for (const p of new Set([Math.max(0, last - 1), last, last + 1])) ids.push(...(await page(p)));
    const now = Date.now();
    polls.push(now - t);
    for (const id of ids) if (!firstSeen.has(id)) firstSeen.set(id, now);
    return ids;
  };
  return {
    firstSeen,
    polls,
    poll,
    watch() {
      let polling = true;
      const loop = (async () => {
        while (polling) {
          const t = Date.now();
          await poll().catch(() => undefined); // a failed poll shows as sales seen later or never
          await sleep(Math.max(0, 100 - (Date.now() - t)));
        }
      })();
      return async () => {
        polling = false;
        await loop;
      };
    },
    /** Until every one of `ids` has been seen by the running watch (or `timeoutMs`). */
    async waitSeen(ids, timeoutMs = 30_000) {
      for (let t = Date.now(); Date.now() - t < timeoutMs && ids.some((id) => !firstSeen.has(id)); ) await sleep(100);
    },
    async waitAll(ids, timeoutMs = 120_000) {
      for (let t = Date.now(); Date.now() - t < timeoutMs; ) {
        const seen = new Set();
        try {
          for (let p = 0; p <= Math.floor(count / 100) + 1; p++) for (const id of await page(p)) seen.add(id);
        } catch {
          /* still starting */
        }
        if (ids.every((id) => seen.has(id))) return true;
        await sleep(200);
      }
      return false;
    },
  };
}

/** The service's own measure: each sale event's occurredAt to its recent_events row (kept for the duplicate window). */
export async function serviceLag(client, companyId, saleIds) {
  const ids = saleIds.map((id) => `sale:${companyId}:${id}:completed`);
  const seen = await client.db('bahi_reports').collection('recent_events').find({ _id: { $in: ids } }).toArray();
  const txns = new Map((await client.db('bahi_reports').collection('txns').find({ _id: { $in: ids } }, { projection: { at: 1 } }).toArray()).map((t) => [t._id, Date.parse(t.at)]));
  return seen.filter((s) => txns.has(s._id)).map((s) => new Date(s.at).getTime() - txns.get(s._id));
}
