// A short run of the load script inside `npm test` (the full 60 s run is `npm run test:load`),
// with two replicas each of sales, inventory and ledger, and one of each SIGKILLed mid-load; the
// reports service is killed with them and started again after the load.
import { auditReports, type ReportsAudit } from '../src/audit';
import { runLoad, storedSales } from '../src/load';
import { Rig, until, type Part } from '../src/rig';

const KILL_AT_MS = 8000;
const KILLED: Part[] = ['sales', 'inventory', 'ledger', 'reports'];
/**
 * What the kills may fail: a call in flight at the kill (it waits out a NATS request to the dead
 * replica, 5 s, and at most once more on the undo) and the dead sales replica's unfinished sales.
 * Those are taken over by their retries at once (the owner's pid is gone: service-kit's Saga) or
 * when their 6 s lease runs out. Before that fix retries of a sale the killed replica left past its
 * point of no return answered 503 until 30-38 s after the kill, and the window had been widened to
 * 45 s; kill to a retried sale's 200 is logged below (docs/reliability.md has the figures).
 * An inventory replica killed inside a stock transaction leaves it open on the database server
 * until the server's transaction lifetime ends (MongoDB's transactionLifetimeLimitSeconds, 60 s by
 * default), and the survivor's stock calls on those documents wait until then. The rig runs the
 * server with 10 s, as an installation whose transactions are all short would (docs/reliability.md).
 */
const WINDOW_MS = 20_000;

let rig: Rig;
beforeAll(async () => {
  // The default leases (6 s, renewed while an attempt works): a live sale is never taken over
  // however slow its steps, a dead replica's within seconds.
  rig = await Rig.start({ replicas: { sales: 2, inventory: 2, ledger: 2 }, mongoTransactionLifetimeSeconds: 10 });
}, 600_000);
afterAll(() => rig?.stop());

/** The gateway's logged upstream errors, counted by error code (for the report). */
function upstreamErrors(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of rig.readLog('gateway').split('\n')) {
    if (!line.includes('"upstream error"')) continue;
    const code = /"code":"([^"]+)"/.exec(line)?.[1] ?? 'none';
    out[code] = (out[code] ?? 0) + 1;
  }
  return out;
}


it('50 cashiers for 20 s on two replicas each of sales, inventory and ledger, one of each killed mid-load: nothing lost, every invariant holds', async () => {
  expect(rig.replicaUrls.sales).toHaveLength(2);
  const r = await runLoad(rig, 50, 20, { kill: { atMs: KILL_AT_MS, parts: KILLED }, retrySalesForMs: 30_000 });
  console.log(
    `Load (npm test): 50 cashiers x 20 s, 2 replicas each of sales/inventory/ledger, ${KILLED.join(', ')} (first replica) killed at ${r.kills.map((k) => k.at).join('/')} ms: ` +
      `${r.requests} requests, ${r.sales} sales, ${r.retried} sales retried with their key, statuses ${JSON.stringify(r.statuses)}; ` +
      `5xx/lost: ${r.failures.length}${r.fivexx.length ? ` (${r.fivexx.slice(0, 8).join('; ')})` : ''}; ` +
      `gateway upstream errors by code: ${JSON.stringify(upstreamErrors())}; ms ${JSON.stringify(r.ms)}`,
  );
  expect(r.kills.map((k) => k.part).sort()).toEqual([...KILLED].sort());
  expect(r.sales).toBeGreaterThan(0);
  // Only calls caught by the kills failed: none answered before the kill, none started long after.
  const killedAt = Math.min(...r.kills.map((k) => k.at));
  // The measure of the dead replica's sales: from the kill to each retried sale's 200.
  const after = r.retriedAnswered.map((a) => a.at - killedAt).sort((a, b) => a - b);
  console.log(`Kill to a retried sale's 200: ${after.length} sales, median ${after[after.length >> 1] ?? '-'} ms, last ${after[after.length - 1] ?? '-'} ms (${JSON.stringify(after)})`);
  // The dead replica's sales taken over by the live one (its log), in ms after the kill.
  const killEpoch = r.startedAt + killedAt;
  const takeovers = rig
    .readLog('sales-2')
    .split('\n')
    .filter((l) => l.includes('"msg":"sale taken over"'))
    .map((l) => JSON.parse(l) as { time: number; why: string; pastNoReturn: boolean })
    .map((t) => `${t.time - killEpoch} ms (${t.why}${t.pastNoReturn ? ', past its point of no return' : ''})`);
  console.log(`Sales taken over from the killed replica: ${takeovers.length}: ${takeovers.join('; ')}`);
  const outside = r.failures.filter((f) => f.end < killedAt || f.start > killedAt + WINDOW_MS);
  expect(outside).toEqual([]);
  // Nothing lost: every sale answered 200 is in the database once, complete, under its key.
  const byKey = await storedSales(rig.mongoUri, r.answered);
  expect(byKey.size).toBe(r.answered.length);
  for (const a of r.answered) expect(byKey.get(a.key)).toMatchObject({ saleId: a.saleId, status: 'complete' });
  // ... with its stock and due (the auditor checks every complete sale), nothing left in flight.
  expect(r.audit.inFlight).toEqual([]);
  expect(r.audit.violations).toEqual([]);
  expect(r.audit.sales).toBeGreaterThanOrEqual(r.sales);

  // Reports was down for the rest of the load: once back it catches up from its durable
  // consumers, and every total it shows is the owners' (no event lost or counted twice).
  const down = Date.now();
  await rig.startPart('reports');
  const seen: { last: ReportsAudit | null } = { last: null };
  try {
    await until('the reports to catch up with the owners', async () => {
      seen.last = await auditReports(rig.mongoUri);
      return seen.last.mismatches.length === 0;
    }, 180_000);
  } catch {
    // The last comparison names what differs.
  }
  console.log(`Reports after the load: ${seen.last?.compared ?? 0} figures compared, caught up ${Date.now() - down} ms after its restart`);
  expect(seen.last?.mismatches).toEqual([]);
});
