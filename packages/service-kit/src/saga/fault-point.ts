/**
 * Test hooks for the steps of a cross-service fact (docs/reliability.md, "kill points"). Inert
 * unless the variable is set, which only tests do:
 * - `BAHI_TEST_KILL_AT=<point>[,<point>...]`: the process SIGKILLs itself on reaching the point
 *   (a crash at exactly that step, for the fault tests' real processes);
 * - `BAHI_TEST_FAIL_AT=<point>[,...]`: the step throws there, as when a reply was lost after the
 *   other service acted (for in-process tests, which cannot be killed).
 * Points are named `<noun>.<after-step>`, e.g. `purchase.after-cart-emptied`.
 */
export function faultPoint(point: string): void {
  if (listed(process.env.BAHI_TEST_KILL_AT, point)) {
    process.kill(process.pid, 'SIGKILL');
    // Nothing after the point may run while the signal is delivered.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10_000);
  }
  if (listed(process.env.BAHI_TEST_FAIL_AT, point)) throw new Error(`test fault at ${point}`);
}

function listed(list: string | undefined, point: string): boolean {
  return !!list && list.split(',').some((p) => p.trim() === point);
}
