// `npm run admin:reset-password [-- --email ADDRESS] [-- --password NEW]`: the way back in for a
// platform admin who is locked out or lost the password. Run on the machine that holds the data:
// it writes identity's database directly (no login needed), sets a new temporary password (random
// unless given; changed at the next login), clears the lock, ends the admin's sessions and prints
// the password.
//
// Where the database is: MONGODB_URI when set (database bahi_identity unless the URI names one);
// otherwise the embedded server of `npm start` with the root login of ./data/mongo-credentials.json
// (BAHI_DATA_DIR for another folder): the running one (port BAHI_MONGO_PORT, default 27017) while
// `npm start` runs, else a server this script starts on ./data/mongo and stops again.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { MongoClient } = require('mongodb');
const argon2 = require('argon2');

const MIN_PASSWORD = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

function fail(msg) {
  process.stderr.write(`\n✖ ${msg}\n\n`);
  process.exit(1);
}

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--(email|password|help)(?:=(.*))?$/.exec(a);
    if (!m) fail(`Unknown argument "${a}". Usage: npm run admin:reset-password [-- --email ADDRESS] [-- --password NEW]`);
    if (m[1] === 'help') out.help = true;
    else out[m[1]] = m[2] ?? argv[++i];
    if (m[1] !== 'help' && (out[m[1]] === undefined || out[m[1]] === '')) fail(`--${m[1]} needs a value.`);
  }
  return out;
}

/** The same alphabet as identity's temporary passwords (no 0/O, 1/l/I). */
function temporaryPassword() {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  return Array.from(randomBytes(14), (b) => alphabet[b % alphabet.length]).join('');
}

function pidAlive(file) {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    if (!pid) return false;
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, child, ms = 30_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`the embedded MongoDB server exited (code ${child.exitCode})`);
    const open = await new Promise((r) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), r(true)));
      s.on('error', () => r(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the embedded MongoDB server did not listen on port ${port} within ${ms / 1000} s`);
}

const rootUri = (login, port) => `mongodb://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@127.0.0.1:${port}/?authSource=admin`;

/** Where identity's database is: {uri, dbName, stop, how}. */
async function locateDatabase() {
  if (process.env.MONGODB_URI) {
    const uri = process.env.MONGODB_URI;
    const named = /^mongodb(?:\+srv)?:\/\/[^/]+\/([^?]+)/.exec(uri);
    return { uri, dbName: named ? decodeURIComponent(named[1]) : 'bahi_identity', stop: async () => {}, how: 'MONGODB_URI' };
  }
  const dataDir = path.resolve(process.env.BAHI_DATA_DIR || path.join(ROOT, 'data'));
  const credFile = path.join(dataDir, 'mongo-credentials.json');
  let root = null;
  if (fs.existsSync(credFile)) {
    try {
      root = JSON.parse(fs.readFileSync(credFile, 'utf8')).root ?? null;
    } catch (err) {
      fail(`${credFile} is not valid JSON (${err.message}).`);
    }
  }
  if (pidAlive(path.join(dataDir, 'bahi.pid'))) {
    const port = Number(process.env.BAHI_MONGO_PORT || 27017);
    const uri = root ? rootUri(root, port) : `mongodb://127.0.0.1:${port}`;
    return { uri, dbName: 'bahi_identity', stop: async () => {}, how: `the running embedded server (port ${port})` };
  }
  const dbPath = path.join(dataDir, 'mongo');
  if (!fs.existsSync(dbPath)) fail(`No Bahi data in ${dataDir} (no mongo folder), and MONGODB_URI is not set: nothing to reset.`);
  const cli = path.join(ROOT, 'packages', 'embedded-mongo', 'dist', 'cli.js');
  if (!fs.existsSync(cli)) fail('The embedded MongoDB server is not built (packages/embedded-mongo/dist/cli.js). Run `npm run build` first.');
  const port = await freePort();
  const usersFile = path.join(dataDir, 'mongo-users.json');
  const withUsers = root && fs.existsSync(usersFile);
  const child = spawn(process.execPath, [cli, '--host', '127.0.0.1', '--port', String(port), '--dbpath', dbPath, ...(withUsers ? ['--users', usersFile] : [])], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  try {
    await waitForPort(port, child);
  } catch (err) {
    child.kill('SIGTERM');
    fail(`${err.message}. ${stderr.trim()}`);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  return { uri: withUsers ? rootUri(root, port) : `mongodb://127.0.0.1:${port}`, dbName: 'bahi_identity', stop, how: `the data in ${dbPath}` };
}

/**
 * Tells running services and the gateway at once (identity.session.revoked, as identity would,
 * with identity's NATS login from the data folder when there is one). Best effort: they also
 * reload the stored list when they start or reconnect.
 */
async function announce(revocations) {
  let nats;
  try {
    nats = require('nats');
  } catch {
    return false;
  }
  const dataDir = path.resolve(process.env.BAHI_DATA_DIR || path.join(ROOT, 'data'));
  let auth = {};
  if (process.env.NATS_USER && process.env.NATS_PASSWORD) auth = { user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD };
  else {
    try {
      const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'nats-passwords.json'), 'utf8'));
      if (typeof saved.identity === 'string') auth = { user: 'identity', pass: saved.identity };
    } catch {
      /* no NATS logins in the data folder */
    }
  }
  try {
    const nc = await nats.connect({ servers: process.env.NATS_URL || 'nats://127.0.0.1:4222', timeout: 2000, reconnect: false, ...auth });
    const subject = 'identity.session.revoked';
    nc.publish(subject, nats.JSONCodec().encode({ pattern: subject, data: { revocations } }));
    await nc.flush();
    await nc.close();
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const opts = args(process.argv.slice(2));
  if (opts.help) {
    process.stdout.write('usage: npm run admin:reset-password [-- --email ADDRESS] [-- --password NEW]\n');
    return;
  }
  const email = (opts.email ?? process.env.BAHI_ADMIN_EMAIL ?? '').trim().toLowerCase();
  const password = opts.password ?? temporaryPassword();
  if (password.length < MIN_PASSWORD) fail(`The password must be at least ${MIN_PASSWORD} characters.`);

  const db = await locateDatabase();
  const client = new MongoClient(db.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    try {
      await client.connect();
    } catch (err) {
      fail(`Cannot reach MongoDB through ${db.how}: ${err.message}`);
    }
    const identity = client.db(db.dbName);
    const users = identity.collection('users');
    const admins = await users.find({ position: 'admin', ...(email ? { email } : {}) }).sort({ id: 1 }).toArray();
    if (!admins.length) fail(email ? `No platform administrator with the e-mail ${email} in ${db.dbName}.` : `No platform administrator in ${db.dbName}.`);
    const admin = admins[0];
    const now = Date.now();
    await users.updateOne(
      { _id: admin._id },
      {
        $set: {
          passwordHash: await argon2.hash(password, { type: argon2.argon2id }),
          passwordChangedAt: new Date(now),
          forceChange: true,
          failedLogins: 0,
          lockedUntil: null,
          updatedAt: new Date(now),
        },
      },
    );
    // As identity's own revokeUser does: each live session by its id (a token of this very second
    // escapes a cut-off in whole seconds), and the cut-off for tokens whose session is missing.
    const sessions = identity.collection('sessions');
    const live = await sessions.find({ userId: admin.id, revoked: false, exp: { $gt: new Date(now) } }).toArray();
    const revocations = [
      ...live.map((s) => ({ kind: 'session', sid: s.sid, until: s.exp.getTime() })),
      { kind: 'user', userId: admin.id, issuedBefore: Math.floor(now / 1000), until: now + DAY_MS },
    ];
    await sessions.updateMany({ userId: admin.id, revoked: false }, { $set: { revoked: true } });
    await identity.collection('revocations').insertMany(revocations.map((r) => ({ ...r })));
    const told = await announce(revocations);
    process.stdout.write(
      [
        `Platform administrator ${admin.email}: password reset (through ${db.how}).`,
        `New password: ${password}`,
        'It must be changed at the next login; the lock is cleared and earlier sessions are ended',
        told ? '(running services were told at once).' : '(running services learn it when they next start or reconnect to NATS).',
        '',
      ].join('\n'),
    );
  } finally {
    await client.close().catch(() => {});
    await db.stop();
  }
}

main().catch((err) => fail(err.message));
