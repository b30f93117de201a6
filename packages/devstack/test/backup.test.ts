import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { EmbeddedMongo } from '@bahi/embedded-mongo';
import { createBackup, listBackups, readManifest, restoreBackup, startStack, verifyBackup, type Stack } from '../src';

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function api<T>(
  stack: Stack,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.gatewayUrl}/api${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
}

async function login(stack: Stack, email: string, password: string): Promise<string> {
  const r = await api<{ token: string }>(stack, 'POST', '/loginReact', undefined, { email, password });
  expect(r.status).toBe(200);
  return r.body.token;
}

const companies = async (stack: Stack, token: string) =>
  (
    await api<{ companyList?: { cName: string }[]; companies?: { cName: string }[] }>(
      stack,
      'GET',
      '/admin/companyList',
      token,
    )
  ).body;

describe('backup and restore of a running stack', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-backup-test-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('backs up online, verifies, and a restore brings back exactly that data, logins and sessions included', async () => {
    const dataDir = path.join(dir, 'data');
    const backups = path.join(dir, 'backups');
    const copies = path.join(dir, 'usb');
    fs.mkdirSync(dataDir);
    fs.mkdirSync(copies);
    fs.writeFileSync(path.join(dataDir, 'jwt-secret'), randomBytes(32).toString('hex'), { mode: 0o600 });
    const secret = () => fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8');
    const env = { BAHI_ADMIN_PASSWORD: 'admin12345', BAHI_DEMO: '1' };
    const services = ['identity', 'inventory', 'ledger'] as const;

    let stack = await startStack({ dataDir, services: [...services], logs: 'files', jwtSecret: secret(), env });
    let before: string;
    let token: string;
    try {
      token = await login(stack, 'admin@bahi.local', 'admin12345');
      before = JSON.stringify(await companies(stack, token));
      const started = Date.now();
      const made = await createBackup({
        dataDir,
        outDir: backups,
        rootDir: ROOT,
        mongoUri: stack.mongoUri,
        copyDir: copies,
      });
      console.log(
        `online backup of the demo data: ${made.size} bytes in ${Date.now() - started} ms (verification ${made.verification?.millis} ms)`,
      );
      expect(made.name).toMatch(/^bahi-\d{8}-\d{4}-[a-z0-9-]+\.bahi$/);
      expect(made.verification).toMatchObject({ good: true, problems: [] });
      expect(made.verification!.audit).toContain('Every invariant holds.');
      expect(made.copied).toBe(true);
      expect(fs.existsSync(path.join(copies, made.name))).toBe(true);
      // The manifest: counts of the demo data, a checksum per part, the secrets listed, no names.
      const manifest = await readManifest(made.file);
      expect(manifest.encrypted).toBe(false);
      expect(manifest.counts['bahi_identity.users']).toBeGreaterThanOrEqual(3);
      expect(manifest.files.map((f) => f.path)).toEqual([
        'jwt-secret',
        'mongo-credentials.json',
        'mongo-users.json',
        'mongo/embedded-mongo.mdb',
        'nats-passwords.json',
      ]);
      expect(JSON.stringify(manifest)).not.toMatch(/Demo Traders|manager@demo/);
      expect(listBackups(backups).map((b) => [b.name, b.verification?.good, b.copied])).toEqual([
        [made.name, true, true],
      ]);

      // Changes after the backup, which the restore must undo.
      const created = await api<{ success: boolean }>(stack, 'POST', '/admin/createCompany', token, {
        cName: 'After Backup Stores',
        cAdd: '1 Lane',
        cMob: '9822000001',
        mName: 'Late',
        mEmail: 'late@after.local',
      });
      expect(created.body.success).toBe(true);
      expect(JSON.stringify(await companies(stack, token))).toContain('After Backup Stores');

      // Refused while the stack holds the data folder; nothing moves.
      await expect(restoreBackup({ file: made.file, dataDir })).rejects.toThrow(
        /Bahi is running on .* \(process \d+\)\. Stop it/,
      );
      expect(fs.existsSync(path.join(dataDir, 'mongo'))).toBe(true);
    } finally {
      await stack.stop();
    }

    const [made] = listBackups(backups);
    const started = Date.now();
    const restored = await restoreBackup({
      file: path.join(backups, made.name),
      dataDir,
      now: new Date('2026-11-28T10:00:00Z'),
    });
    console.log(`restore: ${Date.now() - started} ms`);
    expect(restored.movedTo).toBe(`${dataDir}.before-restore-20261128-1530`);
    expect(fs.existsSync(path.join(restored.movedTo!, 'mongo', 'embedded-mongo.mdb'))).toBe(true);

    stack = await startStack({ dataDir, services: [...services], logs: 'files', jwtSecret: secret(), env });
    try {
      // The session taken before the backup still works, the password too, and the later company is gone.
      expect(JSON.stringify(await companies(stack, token))).toBe(before);
      expect(before).not.toContain('After Backup Stores');
      await login(stack, 'admin@bahi.local', 'admin12345');
      await login(stack, 'manager@demo.local', 'manager12345');
    } finally {
      await stack.stop();
    }
  }, 240_000);

  it('encrypts with the passphrase: the manifest stays readable, a wrong passphrase changes nothing', async () => {
    const dataDir = path.join(dir, 'offline');
    const backups = path.join(dir, 'offline-backups');
    const server = await EmbeddedMongo.start({ port: 0, dbPath: path.join(dataDir, 'mongo') });
    const client = await MongoClient.connect(server.uri);
    await client
      .db('bahi_documents')
      .collection('share_links')
      .insertMany([{ token: 'a' }, { token: 'b' }]);
    await client.close();
    await server.stop();
    fs.writeFileSync(path.join(dataDir, 'jwt-secret'), 'x'.repeat(64));

    // Offline: nothing runs on the folder, so the backup starts its own server on it.
    const made = await createBackup({
      dataDir,
      outDir: backups,
      rootDir: ROOT,
      passphrase: 'correct horse battery',
      scryptLogN: 12,
    });
    expect(made.verification).toMatchObject({ good: true });
    const manifest = await readManifest(made.file);
    expect(manifest).toMatchObject({
      encrypted: true,
      encryption: 'age-scrypt',
      counts: { 'bahi_documents.share_links': 2 },
    });
    const raw = fs.readFileSync(made.file);
    expect(raw.includes(Buffer.from('x'.repeat(64)))).toBe(false);

    expect((await verifyBackup(made.file, { rootDir: ROOT, passphrase: 'wrong' })).problems).toEqual([
      'The passphrase does not open this backup. Nothing was changed.',
    ]);
    const marker = path.join(dataDir, 'marker');
    fs.writeFileSync(marker, 'still here');
    await expect(restoreBackup({ file: made.file, dataDir, passphrase: 'wrong' })).rejects.toThrow(
      'The passphrase does not open this backup. Nothing was changed.',
    );
    await expect(restoreBackup({ file: made.file, dataDir })).rejects.toThrow(/encrypted: set BAHI_BACKUP_PASSPHRASE/);
    expect(fs.readFileSync(marker, 'utf8')).toBe('still here');
    expect(
      fs.readdirSync(dir).filter((n) => n.startsWith('.offline.restoring-') || n.startsWith('offline.before-restore')),
    ).toEqual([]);

    const ok = await restoreBackup({ file: made.file, dataDir, passphrase: 'correct horse battery' });
    expect(fs.readFileSync(path.join(ok.movedTo!, 'marker'), 'utf8')).toBe('still here');
    expect(fs.existsSync(path.join(dataDir, 'marker'))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe('x'.repeat(64));
    const back = await EmbeddedMongo.start({ port: 0, dbPath: path.join(dataDir, 'mongo') });
    const c2 = await MongoClient.connect(back.uri);
    expect(
      await c2
        .db('bahi_documents')
        .collection('share_links')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ token: 'a' }, { token: 'b' }]);
    await c2.close();
    await back.stop();
  }, 120_000);
});
