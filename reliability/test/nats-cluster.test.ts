// Scale out on a real NATS cluster: three nats-server nodes with every JetStream stream at three
// copies (the topology docker-compose.yml runs). One node is SIGKILLed mid-load and started again
// later: no sale lost or doubled, no event lost (reports agree with the owners), the auditor
// finds nothing.
import { connect } from 'nats';
import { EventStreams } from '@bahi/contracts';
import { auditReports, type ReportsAudit } from '../src/audit';
import { runLoad, storedSales } from '../src/load';
import { Rig, sleep, until } from '../src/rig';

const KILL_AT_MS = 6000;
const DOWN_FOR_MS = 8000;
/** Calls in flight on the killed node wait out a NATS request (5 s) before the client moves on. */
const WINDOW_MS = 2 * 5000 + 3000;

let rig: Rig;
beforeAll(async () => {
  rig = await Rig.start({ natsNodes: 3 });
}, 600_000);
afterAll(() => rig?.stop());

it('20 cashiers for 20 s on a three-node NATS cluster, one node killed and started again: nothing lost or doubled, reports catch up', async () => {
  // The owners' streams are at three copies, one on each node.
  const nc = await connect({ servers: rig.natsUrl.split(',') });
  try {
    const jsm = await nc.jetstreamManager();
    await until('the streams at three copies', async () => {
      for (const s of [EventStreams.sales, EventStreams.inventory, EventStreams.ledger]) {
        const info = await jsm.streams.info(s.name);
        if (info.config.num_replicas !== 3 || (info.cluster?.replicas?.length ?? 0) !== 2) return false;
      }
      return true;
    }, 60_000);
  } finally {
    await nc.close();
  }

  // Started again while the load goes on, once the kill has been done.
  const revive = (async () => {
    await until('the node to be killed', async () => rig.kills.includes('nats'), 120_000);
    await sleep(DOWN_FOR_MS);
    await rig.startPart('nats');
    return Date.now();
  })();
  const r = await runLoad(rig, 20, 20, { kill: { atMs: KILL_AT_MS, parts: ['nats'] }, retrySalesForMs: 30_000 });
  const revivedAt = await revive;
  const killedAt = Math.min(...r.kills.map((k) => k.at));
  console.log(
    `NATS cluster (3 nodes, streams at 3 copies): 20 cashiers x 20 s, node 1 killed at ${killedAt} ms and started again ${DOWN_FOR_MS} ms later: ` +
      `${r.requests} requests, ${r.sales} sales, ${r.retried} sales retried with their key, statuses ${JSON.stringify(r.statuses)}; ` +
      `failed calls: ${r.failures.length}${r.fivexx.length ? ` (${r.fivexx.slice(0, 8).join('; ')})` : ''}; ms ${JSON.stringify(r.ms)}`,
  );
  expect(r.kills.map((k) => k.part)).toEqual(['nats']);
  expect(r.sales).toBeGreaterThan(0);
  expect(revivedAt).toBeGreaterThan(0);
  // Only calls caught by the kill failed.
  const outside = r.failures.filter((f) => f.end < killedAt || f.start > killedAt + WINDOW_MS);
  expect(outside).toEqual([]);
  // Nothing lost or doubled: every sale answered 200 is in the database once, complete.
  const byKey = await storedSales(rig.mongoUri, r.answered);
  expect(byKey.size).toBe(r.answered.length);
  for (const a of r.answered) expect(byKey.get(a.key)).toMatchObject({ saleId: a.saleId, status: 'complete' });
  expect(r.audit.inFlight).toEqual([]);
  expect(r.audit.violations).toEqual([]);

  // No event lost: the reports, consuming through the cluster, agree with the owners.
  const seen: { last: ReportsAudit | null } = { last: null };
  try {
    await until('the reports to agree with the owners', async () => {
      seen.last = await auditReports(rig.mongoUri);
      return seen.last.mismatches.length === 0;
    }, 180_000);
  } catch {
    // The last comparison names what differs.
  }
  console.log(`Reports after the load: ${seen.last?.compared ?? 0} figures compared`);
  expect(seen.last?.compared).toBeGreaterThan(0);
  expect(seen.last?.mismatches).toEqual([]);
});
