// `npm run bench`: every workspace's `bench` script, one after the other (each prints and
// records its own figures). Arguments are passed to turbo, e.g. --filter=@bahi/embedded-mongo.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { bootstrap, ROOT, say, toolEnv } from './bootstrap.mjs';

bootstrap({ browser: false });
say('Running benchmarks…');
const r = spawnSync(
  path.join(ROOT, 'node_modules', '.bin', 'turbo'),
  ['run', 'bench', '--concurrency=1', '--output-logs=full', ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...toolEnv(), TURBO_TELEMETRY_DISABLED: '1' } },
);
process.exit(r.status ?? 1);
