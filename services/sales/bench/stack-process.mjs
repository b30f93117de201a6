// `launchStack(opts)`: devstack's startStack in a child process (launcher.mjs), so the launcher's
// own CPU (supervision, process bookkeeping) is measured apart from the bench client's.
import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LAUNCHER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'launcher.mjs');

export async function launchStack(opts) {
  const child = fork(LAUNCHER, [JSON.stringify(opts)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', (m) => (m.type === 'ready' ? resolve(m) : reject(new Error(`the stack did not start: ${m.message}`))));
    child.once('exit', (code) => reject(new Error(`the launcher exited with ${code} before the stack was up`)));
  });
  let next = 0;
  const pending = new Map();
  child.on('message', (m) => {
    if (m.id === undefined || !pending.has(m.id)) return;
    const { resolve, reject } = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) reject(new Error(m.error));
    else resolve(m);
  });
  const ask = (type, name) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      child.send({ id, type, name });
    });
  let pids = ready.pids;
  return {
    gatewayUrl: ready.gatewayUrl,
    mongoUri: ready.mongoUri,
    services: ready.services,
    logDir: ready.logDir,
    /** The processes' ids as last known (a stopped service is left out; the launcher is `launcher`). */
    pids: () => pids,
    async stopService(name) {
      pids = (await ask('stop-service', name)).pids;
    },
    async startService(name) {
      pids = (await ask('start-service', name)).pids;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      await ask('stop');
      await exited;
    },
  };
}
