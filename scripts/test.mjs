// `npm test`: bootstrap, then every workspace's jest tests (browser end-to-end tests last),
// ending with one line `N passed, N failed`. Arguments narrow the run to some workspaces.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bootstrap, ROOT, say, toolEnv } from './bootstrap.mjs';

const RESULTS = path.join(ROOT, 'test-results');
const LAST = ['e2e'];
const TIMEOUT_MIN = Number(process.env.BAHI_TEST_TIMEOUT_MIN ?? 30);

/** Workspace folders from the root package.json globs (`dir/*` or a plain folder). */
function workspaces() {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of root.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const base = path.join(ROOT, pattern.slice(0, -2));
      if (!fs.existsSync(base)) continue;
      for (const d of fs.readdirSync(base).sort()) dirs.push(path.join(pattern.slice(0, -2), d));
    } else dirs.push(pattern);
  }
  const out = [];
  for (const dir of dirs) {
    const file = path.join(ROOT, dir, 'package.json');
    if (!fs.existsSync(file)) continue;
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
    out.push({ dir, name: pkg.name ?? dir, test: pkg.scripts?.test ?? '' });
  }
  return out.sort((a, b) => Number(LAST.includes(a.dir)) - Number(LAST.includes(b.dir)));
}

const isJest = (script) => /(^|[\s;&|])jest(\s|$)/.test(script);

function runJest(ws, outputFile, env) {
  const args = ['run', 'test', '--workspace', ws.dir, '--', '--json', `--outputFile=${outputFile}`, '--passWithNoTests', '--forceExit'];
  if (process.env.CI) args.push('--ci');
  return new Promise((resolve) => {
    const child = spawn('npm', args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    const timer = setTimeout(() => {
      process.stderr.write(`\n✖ ${ws.name}: tests still running after ${TIMEOUT_MIN} min; stopping them.\n`);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, TIMEOUT_MIN * 60_000);
    // Ctrl-C reaches the whole group; make sure no test server outlives us.
    const onSignal = () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      resolve({ code, signal });
    });
  });
}

function readResult(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function main() {
  const only = process.argv.slice(2);
  const { buildOk } = bootstrap({ browser: only.length === 0 || only.some((a) => a.includes('e2e')), keepGoing: true });

  // Test results start afresh; the benchmark's figures (test-results/bench), which its report
  // reads step by step, are kept.
  fs.mkdirSync(RESULTS, { recursive: true });
  for (const f of fs.readdirSync(RESULTS)) if (f !== 'bench') fs.rmSync(path.join(RESULTS, f), { recursive: true, force: true });
  const env = { ...process.env, ...toolEnv(), TURBO_TELEMETRY_DISABLED: '1' };

  const selected = workspaces().filter(
    (w) => only.length === 0 || only.some((o) => o === w.dir || o === w.name || `@bahi/${o}` === w.name),
  );
  if (only.length && selected.length === 0) {
    process.stderr.write(`No workspace matches ${only.join(', ')}.\n`);
    process.exit(2);
  }

  const rows = [];
  const failures = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let broken = false;
  if (!buildOk) {
    // A workspace that does not build is a failure even if its old build output still tests green.
    rows.push(['(build)', 'failed: see the build errors at the top']);
    failed += 1;
    broken = true;
  }
  for (const ws of selected) {
    if (!isJest(ws.test)) {
      rows.push([ws.name, ws.test ? 'no jest tests (skipped)' : 'no test script (skipped)']);
      continue;
    }
    say(`Testing ${ws.name}…`);
    const file = path.join(RESULTS, `${ws.name.replace(/^@/, '').replace(/\//g, '-')}.json`);
    const started = Date.now();
    const { code, signal } = await runJest(ws, file, env);
    const secs = Math.round((Date.now() - started) / 1000);
    const r = readResult(file);
    if (!r) {
      // Jest did not get as far as writing results: count the workspace as one failure.
      failed += 1;
      broken = true;
      rows.push([ws.name, `did not run (${signal ?? `exit code ${code}`}), ${secs} s`]);
      continue;
    }
    const p = r.numPassedTests ?? 0;
    const f = r.numFailedTests ?? 0;
    const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    const crashed = r.numRuntimeErrorTestSuites ?? 0;
    passed += p;
    failed += f + crashed;
    skipped += s;
    if (code !== 0 || crashed > 0) broken = true;
    failures.push(...failuresOf(ws.name, r));
    const parts = [`${p} passed`, `${f} failed`];
    if (s) parts.push(`${s} skipped`);
    if (crashed) parts.push(`${crashed} suite(s) failed to run`);
    if (r.numTotalTests === 0) parts.push('no tests found');
    if (code !== 0 && f === 0 && crashed === 0) parts.push(`jest exited with ${signal ?? code}`);
    rows.push([ws.name, `${parts.join(', ')}, ${secs} s`]);
  }

  const width = Math.max(...rows.map((r) => r[0].length), 10);
  process.stdout.write('\nTest results by workspace\n');
  for (const [name, text] of rows) process.stdout.write(`  ${name.padEnd(width)}  ${text}\n`);
  // Repeated at the very end: a CI log that keeps only a part of a long run still shows why.
  if (failures.length) {
    process.stdout.write('\nWhat failed\n');
    for (const f of failures) process.stdout.write(`${f}\n`);
  }
  process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  process.exit(failed > 0 || broken ? 1 : 0);
}

const plain = (s) => String(s).replace(/\u001b\[[0-9;]*m/g, '');

/** Each failed test (or suite that did not run) of a jest JSON result: its name and the start of its message. */
function failuresOf(workspace, r) {
  const out = [];
  for (const file of r.testResults ?? []) {
    const rel = path.relative(ROOT, file.name ?? '');
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (!failed.length && file.status === 'failed') out.push(`  ${workspace} ${rel}: ${plain(file.message).trim().slice(0, 800)}`);
    for (const a of failed) out.push(`  ${workspace} ${rel} > ${a.fullName}\n    ${plain((a.failureMessages ?? []).join('\n')).trim().slice(0, 800).replace(/\n/g, '\n    ')}`);
  }
  return out;
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.stdout.write('\n0 passed, 1 failed\n');
  process.exit(1);
});
