// Shared first step of `npm start`, `npm test` and `npm run bench`: make a fresh Debian machine
// with Node 20 ready (npm dependencies, system packages, build). Plain Node, no dependencies.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function say(msg) {
  process.stdout.write(`${process.stdout.isTTY ? '\x1b[1m' : ''}» ${msg}${process.stdout.isTTY ? '\x1b[0m' : ''}\n`);
}

export function fail(msg) {
  process.stderr.write(`\n✖ ${msg}\n\n`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (res.error) return { ok: false, message: res.error.message };
  return { ok: res.status === 0, message: `exit code ${res.status}` };
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    fail(`Node ${process.versions.node} is too old: Bahi needs Node 20.19 or newer (https://nodejs.org).`);
  }
}

/**
 * What `npm ci` would install but is not there (by path and version). Optional and
 * platform-specific packages are not required.
 */
function missingPackages() {
  const lockPath = path.join(ROOT, 'package-lock.json');
  if (!fs.existsSync(lockPath)) return ['(no package-lock.json)'];
  const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
  const missing = [];
  for (const [loc, meta] of Object.entries(lock.packages ?? {})) {
    if (!loc.startsWith('node_modules/') || meta.optional || meta.devOptional || meta.peer) continue;
    const dir = path.join(ROOT, loc);
    if (meta.link) {
      if (!fs.existsSync(dir)) missing.push(loc);
      continue;
    }
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (meta.version && pkg.version !== meta.version) missing.push(`${loc}@${meta.version}`);
    } catch {
      missing.push(loc);
    }
    if (missing.length > 20) break;
  }
  return missing;
}

function ensureNpmDependencies() {
  if (process.env.BAHI_SKIP_INSTALL === '1') return;
  const hasLock = fs.existsSync(path.join(ROOT, 'package-lock.json'));
  if (!fs.existsSync(path.join(ROOT, 'node_modules'))) {
    if (hasLock) {
      say('Installing npm dependencies (npm ci)…');
      if (run('npm', ['ci', '--no-audit', '--no-fund']).ok) return;
      // npm ci refuses a lockfile without other platforms' optional binaries; npm install resolves them.
      say('npm ci did not succeed; trying npm install with the same lockfile…');
    } else say('Installing npm dependencies (npm install)…');
    const r = run('npm', ['install', '--no-audit', '--no-fund']);
    if (!r.ok) fail(`Installing npm dependencies failed (${r.message}). Check the npm output above and your access to the npm registry.`);
    return;
  }
  const missing = missingPackages();
  if (missing.length === 0) return;
  say(`npm dependencies are out of date (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}); running npm install…`);
  const r = run('npm', ['install', '--no-audit', '--no-fund']);
  if (!r.ok) fail(`npm install failed (${r.message}). Check the npm output above.`);
}

function onPath(bin) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).concat(['/usr/sbin', '/usr/bin', '/usr/local/bin', '/sbin'])) {
    if (dir && fs.existsSync(path.join(dir, bin))) return path.join(dir, bin);
  }
  return null;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** This machine as the bootstrap sees it; the tests describe other machines the same way. */
export function realMachine() {
  return {
    env: process.env,
    onPath,
    exists: (p) => fs.existsSync(p),
    dpkgInstalled,
    hasApt: !!onPath('apt-get'),
    isRoot: typeof process.getuid === 'function' && process.getuid() === 0,
    sudo: () => spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
  };
}

/**
 * The system packages this run needs and which of them are missing. `browser`: Chromium and
 * the fonts, which printing needs (`npm start` too: the first bill must print); `pdfTools`:
 * poppler, which only the tests use to read PDFs back (default: as `browser`).
 */
export function systemNeeds({ browser, pdfTools = browser }, m = realMachine()) {
  const needs = [];
  if (!m.env.NATS_URL) {
    const bin = m.env.NATS_SERVER_BIN || m.onPath('nats-server');
    needs.push({ pkg: 'nats-server', ok: !!bin && m.exists(bin), hint: 'or set NATS_SERVER_BIN, or NATS_URL to use a running server' });
  }
  if (browser) {
    const chrome = m.env.CHROME_PATH || m.onPath('chromium') || m.onPath('chromium-browser');
    needs.push({ pkg: 'chromium', ok: !!chrome && m.exists(chrome), hint: 'or set CHROME_PATH' });
    // Noto Sans for ₹ and Latin, Noto Sans Devanagari for documents printed in Hindi.
    const noto = (f) => m.exists(`/usr/share/fonts/truetype/noto/${f}`);
    needs.push({ pkg: 'fonts-noto-core', ok: (m.dpkgInstalled('fonts-noto-core') || noto('NotoSans-Regular.ttf')) && noto('NotoSansDevanagari-Regular.ttf'), hint: 'Noto Sans and Noto Sans Devanagari (Hindi documents)' });
  }
  if (pdfTools) needs.push({ pkg: 'poppler-utils', ok: !!m.onPath('pdftoppm') });
  return needs;
}

/**
 * What to do about the missing packages: nothing, install them with apt-get (as root or with
 * passwordless sudo), or stop with the exact command to run.
 */
export function systemPackagesPlan(opts, m = realMachine()) {
  const missing = systemNeeds(opts, m).filter((n) => !n.ok);
  if (missing.length === 0) return { action: 'none' };
  const names = missing.map((x) => x.pkg);
  const command = `sudo apt-get install -y --no-install-recommends ${names.join(' ')}`;
  const manual = `Please install them: ${command}` + missing.filter((x) => x.hint).map((x) => `\n  (${x.pkg}: ${x.hint})`).join('');
  const stop = (why) => ({ action: 'stop', packages: names, command, message: `Missing system packages: ${names.join(', ')}${why}. ${manual}` });
  if (m.env.BAHI_NO_APT === '1') return stop('');
  if (!m.hasApt) return stop(', and apt-get is not available here');
  if (!m.isRoot && !m.sudo()) return stop(', and this user cannot run apt-get (not root, no passwordless sudo)');
  return { action: 'install', packages: names, command, manual, sudo: !m.isRoot };
}

function ensureSystemPackages(opts) {
  const plan = systemPackagesPlan(opts);
  if (plan.action === 'none') return;
  if (plan.action === 'stop') fail(plan.message);
  const { packages: names, manual } = plan;
  const pre = plan.sudo ? ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'] : [];
  const exec = (args) => (plan.sudo ? run(pre[0], [...pre.slice(1), ...args]) : run(args[0], args.slice(1), { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }));
  say(`Installing system packages with apt-get: ${names.join(' ')}…`);
  const upd = exec(['apt-get', 'update']);
  if (!upd.ok) fail(`apt-get update failed (${upd.message}). ${manual}`);
  const inst = exec(['apt-get', 'install', '-y', '--no-install-recommends', ...names]);
  if (!inst.ok) fail(`apt-get install failed (${inst.message}). ${manual}`);
  const still = systemNeeds(opts).filter((n) => !n.ok).map((n) => n.pkg);
  if (still.length) fail(`Still missing after apt-get: ${still.join(', ')}. ${manual}`);
}

/** Builds every workspace; with `keepGoing` the others still build when one fails. */
function build(keepGoing) {
  if (process.env.BAHI_SKIP_BUILD === '1') return true;
  say('Building (cached parts are skipped)…');
  const turbo = path.join(ROOT, 'node_modules', '.bin', 'turbo');
  const args = ['run', 'build', '--output-logs=errors-only', '--concurrency=2'];
  if (keepGoing) args.push('--continue');
  const r = run(turbo, args, {
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
  });
  if (r.ok) return true;
  if (!keepGoing) fail(`The build failed (${r.message}). The errors are above.`);
  process.stderr.write(`\n✖ Part of the build failed (${r.message}); the errors are above. Carrying on with what did build.\n\n`);
  return false;
}

/** BAHI_JWT_SECRET, or the one generated into data/jwt-secret on first start. */
export function jwtSecret(dataDir = path.join(ROOT, 'data')) {
  if (process.env.BAHI_JWT_SECRET) {
    // The services and the gateway refuse a shorter one; say so once, before starting them.
    if (process.env.BAHI_JWT_SECRET.length < 32) fail('BAHI_JWT_SECRET must be at least 32 characters long (e.g. openssl rand -base64 48), or unset it to use a generated one.');
    return process.env.BAHI_JWT_SECRET;
  }
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/** Locations the test and browser runs look for (Debian's paths unless already set). */
export function toolEnv() {
  const env = {};
  const chrome = process.env.CHROME_PATH || onPath('chromium') || onPath('chromium-browser');
  if (chrome) env.CHROME_PATH = chrome;
  const nats = process.env.NATS_SERVER_BIN || onPath('nats-server');
  if (nats) env.NATS_SERVER_BIN = nats;
  return env;
}

/**
 * `browser`: also Chromium and the fonts (PDFs), and poppler unless `pdfTools` is false (only
 * the tests read PDFs back). `keepGoing`: a failed build does not stop here; the result says
 * whether everything built.
 */
export function bootstrap({ browser = false, pdfTools = browser, keepGoing = false } = {}) {
  checkNode();
  ensureNpmDependencies();
  ensureSystemPackages({ browser, pdfTools });
  return { buildOk: build(keepGoing) };
}
