// The stack in a process of its own, as `npm start`'s launcher runs it: the bench reads the
// launcher's CPU time apart from its own client's. Started by stack-process.mjs (`launchStack`);
// argv[2] is startStack's options as JSON. Messages from the parent: { id, type: 'pids' |
// 'stop-service' | 'start-service' | 'stop', name }; each answered { id, ... }.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processSwitch } from '../../reports/bench/lag.mjs';

const require = createRequire(import.meta.url);
const { startStack } = require('@bahi/devstack');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const opts = JSON.parse(process.argv[2] ?? '{}');
let stack;
try {
  stack = await startStack({ rootDir: ROOT, logs: 'files', ...opts });
} catch (err) {
  process.send({ type: 'failed', message: err.message });
  process.exit(1);
}
/** Services the bench stops and starts (the stack runs with restart: false for it). */
const switches = {};
const pids = () => {
  const out = { ...stack.pids(), launcher: process.pid };
  for (const [name, sw] of Object.entries(switches)) {
    if (sw.pid() === null) delete out[name];
    else out[name] = sw.pid();
  }
  return out;
};
const stop = async () => {
  for (const sw of Object.values(switches)) await sw.stop().catch(() => undefined);
  await stack.stop();
};
process.on('message', async ({ id, type, name }) => {
  try {
    if (type === 'pids') return process.send({ id, pids: pids() });
    if (type === 'stop-service' || type === 'start-service') {
      switches[name] ??= processSwitch({ pid: stack.pids()[name], url: stack.services[name], logFile: path.join(stack.logDir, `${name}-bench.log`) });
      await (type === 'stop-service' ? switches[name].stop() : switches[name].start());
      return process.send({ id, pids: pids() });
    }
    if (type === 'stop') {
      await stop();
      process.send({ id });
      process.exit(0);
    }
  } catch (err) {
    process.send({ id, error: err.message });
  }
});
// The bench gone (finished or killed): nothing of the stack is left behind.
process.on('disconnect', () => void stop().finally(() => process.exit(0)));
process.send({ type: 'ready', gatewayUrl: stack.gatewayUrl, mongoUri: stack.mongoUri, services: stack.services, logDir: stack.logDir, pids: pids() });
