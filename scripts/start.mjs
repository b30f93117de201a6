// `npm start`: bootstrap, then MongoDB (embedded, data in ./data), nats-server, every built
// service and the gateway on http://localhost:8080. Ctrl-C stops them all.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bootstrap, fail, jwtSecret, ROOT, say, toolEnv } from './bootstrap.mjs';

const DATA = path.join(ROOT, 'data');
const PID_FILE = path.join(DATA, 'bahi.pid');

function alreadyRunning() {
  try {
    const pid = Number(fs.readFileSync(PID_FILE, 'utf8'));
    if (pid && pid !== process.pid) {
      process.kill(pid, 0);
      return pid;
    }
  } catch {
    /* no pid file, or that process is gone */
  }
  return 0;
}

function box(lines) {
  const width = Math.max(...lines.map((l) => [...l].length));
  const bar = '─'.repeat(width + 2);
  return [`┌${bar}┐`, ...lines.map((l) => `│ ${l}${' '.repeat(width - [...l].length)} │`), `└${bar}┘`].join('\n');
}

async function main() {
  // Chromium and the fonts too: the first bill printed after the first start must render.
  const { buildOk } = bootstrap({ browser: true, pdfTools: false, keepGoing: true });
  if (!buildOk) say('Some parts did not build (errors above); starting what did build.');
  fs.mkdirSync(DATA, { recursive: true });
  const other = alreadyRunning();
  if (other) fail(`Bahi is already running from this folder (process ${other}). Stop it (Ctrl-C in its terminal) before starting again.`);
  fs.writeFileSync(PID_FILE, String(process.pid));

  const require = createRequire(import.meta.url);
  const { startStack, startBackupAgent } = require(path.join(ROOT, 'packages', 'devstack'));
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`PORT must be a port number, got "${process.env.PORT}".`);

  say('Starting MongoDB, NATS, the services and the gateway…');
  let stack;
  let backups;
  try {
    // Daily verified backups and Setting > Backups (packages/devstack/src/backup-agent.ts).
    backups = await startBackupAgent({ rootDir: ROOT, dataDir: DATA, daily: true, log: (m) => say(m) });
    stack = await startStack({
      rootDir: ROOT,
      dataDir: DATA,
      port,
      fixedPorts: true,
      logs: 'prefix',
      jwtSecret: jwtSecret(DATA),
      env: { ...toolEnv(), BACKUPS_URL: backups.url },
      onNotice: (m) => say(m),
    });
    backups.attach(stack);
  } catch (err) {
    await backups?.stop().catch(() => {});
    fs.rmSync(PID_FILE, { force: true });
    fail(`Bahi could not start: ${err.message}`);
  }

  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping every process…`);
    await backups.stop().catch((e) => process.stderr.write(`${e.message}\n`));
    await stack.stop().catch((e) => process.stderr.write(`${e.message}\n`));
    fs.rmSync(PID_FILE, { force: true });
    say('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));

  const adminEmail = process.env.BAHI_ADMIN_EMAIL ?? 'admin@bahi.local';
  const adminPassword = process.env.BAHI_ADMIN_PASSWORD ?? 'admin12345';
  const lines = [
    `Bahi is running: ${stack.gatewayUrl}`,
    '',
    `Platform admin:  ${adminEmail} / ${process.env.BAHI_ADMIN_PASSWORD ? '(BAHI_ADMIN_PASSWORD)' : adminPassword}`,
  ];
  if (!process.env.BAHI_ADMIN_PASSWORD) lines.push('  ⚠ default admin password: change it after the first login.');
  if (process.env.BAHI_DEMO !== '0') {
    lines.push('Demo manager:    manager@demo.local / manager12345');
    lines.push('Demo staff:      staff@demo.local / staff12345');
  }
  const missing = ['identity', 'inventory', 'sales', 'ledger', 'documents', 'reports'].filter((s) => !stack.services[s]);
  if (missing.length) lines.push('', `Not built yet (their calls answer 501): ${missing.join(', ')}`);
  if (stack.mongoCredentialsFile) lines.push('', `MongoDB users (root, one per service): ${path.relative(ROOT, stack.mongoCredentialsFile)}`);
  const b = backups.service.settings;
  lines.push('', `Data: ${path.relative(ROOT, DATA) || '.'}/   Health: ${stack.gatewayUrl}/api/health`);
  if (stack.mongoCredentialsFile) lines.push(`Backups: daily at ${backups.service.list().at} (India) into ${path.relative(ROOT, b.dir) || b.dir}/${b.passphrase ? ', encrypted' : ''}${b.copyDir ? `, copied to ${b.copyDir}` : ''}`);
  lines.push('Press Ctrl-C to stop.');
  process.stdout.write(`\n${box(lines)}\n\n`);
}

main().catch((err) => fail(err?.message ?? String(err)));
