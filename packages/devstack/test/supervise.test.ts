// Supervision: a process of the stack that dies unasked is started again (same port and data)
// after a backoff that doubles up to a ceiling, its reason and count logged and shown in
// /api/health; a deliberate stop never restarts anything. Real processes, real SIGKILLs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManagedProcess } from '../src/processes';
import { startStack, type Stack } from '../src';

/** Polls `check` every 100 ms until it is truthy; fails with `what` after `ms`. */
async function until<T>(what: string, check: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Gave up waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('ManagedProcess.supervise', () => {
  it('restarts a process that keeps dying after 0.05, 0.1, 0.2, 0.4, 0.4 s (doubling to the ceiling), logging each exit', async () => {
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-supervise-'));
    const p = new ManagedProcess('crasher', process.execPath, ['-e', 'process.exit(3)'], { cwd: __dirname, env: process.env, logs: 'files', logDir, colorIndex: 0 });
    const changes: string[] = [];
    p.supervise({ initialMs: 50, maxMs: 400, resetAfterMs: 60_000 }, undefined, () => changes.push(p.status().status));
    try {
      await until('five restarts', () => p.restarts >= 5 && p.lastLines().includes('restart 6 in'), 30_000);
    } finally {
      await p.stop();
    }
    const waits = [...p.lastLines().matchAll(/exited unexpectedly \(code 3\); restart (\d+) in ([\d.]+) s/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(waits.slice(0, 6)).toEqual([
      [1, 0.05],
      [2, 0.1],
      [3, 0.2],
      [4, 0.4],
      [5, 0.4],
      [6, 0.4],
    ]);
    expect(p.lastExit?.reason).toBe('code 3');
    expect(changes).toContain('restarting');
    // Stopped while waiting for the next restart: it stays stopped.
    const restarts = p.restarts;
    expect(p.status()).toMatchObject({ status: 'stopped', restarts });
    await new Promise((r) => setTimeout(r, 500));
    expect(p.restarts).toBe(restarts);
    expect(fs.readFileSync(path.join(logDir, 'crasher.log'), 'utf8')).toMatch(/exited unexpectedly \(code 3\); restart 1 in 0.05 s/);
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it('starts again from the first wait once the process stayed up long enough', async () => {
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-supervise-'));
    // Up for 300 ms each time, longer than resetAfterMs (200 ms): every death is a first one.
    const p = new ManagedProcess('slow-crasher', process.execPath, ['-e', 'setTimeout(() => process.exit(4), 300)'], { cwd: __dirname, env: process.env, logs: 'silent', logDir, colorIndex: 0 });
    p.supervise({ initialMs: 50, maxMs: 400, resetAfterMs: 200 });
    try {
      await until('three restarts', () => p.restarts >= 3, 30_000);
    } finally {
      await p.stop();
    }
    const waits = [...p.lastLines().matchAll(/restart \d+ in ([\d.]+) s/g)].map((m) => Number(m[1]));
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(waits)).toEqual(new Set([0.05]));
    fs.rmSync(logDir, { recursive: true, force: true });
  });
});

describe('startStack restarts what dies', () => {
  let stack: Stack;
  let stopped = false;

  beforeAll(async () => {
    stack = await startStack({ services: ['identity'], logs: 'files', env: { BAHI_ADMIN_PASSWORD: 'admin12345' } });
  }, 180_000);

  afterAll(async () => {
    if (!stopped) await stack?.stop();
  });

  const adminToken = async () => {
    const res = await fetch(`${stack.gatewayUrl}/api/loginReact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@bahi.local', password: 'admin12345' }),
    });
    return res.ok ? ((await res.json()) as { token: string }).token : null;
  };

  it.each(['mongo', 'nats', 'identity', 'gateway'])('%s: SIGKILLed, started again on its port, logged, counted in /api/health; logins work again', async (name) => {
    const before = stack.pids()[name]!;
    expect(before).toBeGreaterThan(0);
    process.kill(before, 'SIGKILL');
    const pid = await until(`${name} to be restarted`, () => {
      const now = stack.pids()[name];
      return now && now !== before && alive(now) ? now : null;
    });
    expect(pid).not.toBe(before);
    const status = await until(`${name} to serve again`, () => {
      const s = stack.processes()[name]!;
      return s.lastRecoveryMs !== undefined && s.status === 'running' ? s : null;
    });
    expect(status).toMatchObject({ restarts: 1, pid, lastExit: { reason: 'signal SIGKILL' } });
    const log = fs.readFileSync(path.join(stack.logDir, `${name}.log`), 'utf8');
    expect(log).toMatch(/exited unexpectedly \(signal SIGKILL\); restart 1 in 0.5 s/);
    expect(log).toMatch(/restarted \(restart 1, pid \d+\)/);
    expect(log).toMatch(/serving again [\d.]+ s after it died/);
    // The whole stack serves again: a login goes through the gateway to identity and MongoDB.
    const token = await until('a login to succeed', adminToken, 60_000);
    // The gateway shows it to a signed-in user, from the file the stack keeps.
    const health = await until('/api/health to show the restart', async () => {
      const res = await fetch(`${stack.gatewayUrl}/api/health`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { status: string; processes?: Record<string, { restarts: number; lastExit?: { reason: string } }> };
      return body.status === 'ok' && body.processes?.[name]?.restarts === 1 ? body : null;
    });
    expect(health.processes![name]).toMatchObject({ status: 'running', restarts: 1, lastExit: { reason: 'signal SIGKILL' } });
    expect(Object.keys(health.processes!).sort()).toEqual(['gateway', 'identity', 'mongo', 'nats']);
    const anonymous = (await (await fetch(`${stack.gatewayUrl}/api/health`)).json()) as Record<string, unknown>;
    expect(anonymous.processes).toBeUndefined();
  });

  it('a deliberate stop restarts nothing', async () => {
    const pids = stack.pids();
    const file = stack.processesFile;
    await stack.stop();
    stopped = true;
    for (const [name, pid] of Object.entries(pids)) expect([name, alive(pid)]).toEqual([name, false]);
    // Longer than the first backoff (0.5 s): nothing came back.
    await new Promise((r) => setTimeout(r, 1500));
    for (const s of Object.values(stack.processes())) expect(s.status).toBe('stopped');
    expect(stack.pids()).toEqual(pids);
    for (const pid of Object.values(pids)) expect(alive(pid)).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('processes.json in a kept data dir', () => {
  it('is started afresh on each start and left with every process stopped after a stop', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-supervise-data-'));
    const file = path.join(dataDir, 'processes.json');
    // A record left by an earlier run: replaced by this run's.
    fs.writeFileSync(file, JSON.stringify({ processes: { sales: { status: 'running', restarts: 7 } } }));
    const stack = await startStack({ services: [], dataDir, logs: 'silent', onNotice: () => {} });
    try {
      expect(stack.processesFile).toBe(file);
      const running = JSON.parse(fs.readFileSync(file, 'utf8')) as { processes: Record<string, { status: string; restarts: number }> };
      expect(Object.keys(running.processes).sort()).toEqual(['gateway', 'mongo', 'nats']);
      for (const p of Object.values(running.processes)) expect(p).toMatchObject({ status: 'running', restarts: 0 });
    } finally {
      await stack.stop();
    }
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { processes: Record<string, { status: string }> };
    expect(Object.values(after.processes).map((p) => p.status)).toEqual(['stopped', 'stopped', 'stopped']);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 180_000);
});
