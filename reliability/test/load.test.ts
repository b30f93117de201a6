// A short run of the load script inside `npm test` (the full 60 s run is `npm run test:load`).
import { runLoad } from '../src/load';
import { Rig } from '../src/rig';

let rig: Rig;
beforeAll(async () => {
  rig = await Rig.start();
}, 600_000);
afterAll(() => rig?.stop());

it('50 cashiers selling at once for 20 s: no 5xx, every invariant holds afterwards', async () => {
  const r = await runLoad(rig, 50, 20);
  console.log(`Load (npm test): 50 cashiers x 20 s: ${r.requests} requests, ${r.sales} sales, statuses ${JSON.stringify(r.statuses)}`);
  expect(r.fivexx).toEqual([]);
  expect(r.sales).toBeGreaterThan(0);
  expect(r.audit.violations).toEqual([]);
  expect(r.audit.sales).toBeGreaterThanOrEqual(r.sales);
});
