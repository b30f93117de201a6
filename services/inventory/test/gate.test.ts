import { Gate, GateTimeout } from '../src/stock/gate';

describe('the stock gate', () => {
  it('runs at most its limit at once, the rest in arrival order, and passes results and errors through', async () => {
    const gate = new Gate(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 3) throw new Error('task 3 failed');
      return i * 10;
    };
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => gate.run(task(i))));
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([0, 10, 20, 'task 3 failed', 40, 50]);
    // Free again afterwards.
    expect(await gate.run(async () => 'again')).toBe('again');
  });
});

describe('the stock gate past a deadline', () => {
  it('does not run a task that waited longer than its deadline, and hands its turn on', async () => {
    const gate = new Gate(1);
    const ran: string[] = [];
    const slow = gate.run(async () => {
      ran.push('slow');
      await new Promise((r) => setTimeout(r, 60));
    });
    const late = gate.run(async () => void ran.push('late'), 20);
    const patient = gate.run(async () => void ran.push('patient'), 1000);
    await slow;
    await expect(late).rejects.toBeInstanceOf(GateTimeout);
    await patient;
    expect(ran).toEqual(['slow', 'patient']);
    // The slot was handed on, not lost: the gate still runs one at a time and is free again.
    expect(await gate.run(async () => 'free', 10)).toBe('free');
  });
});
