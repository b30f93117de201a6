import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedMongo } from '@bahi/embedded-mongo';
import { MongoClient } from 'mongodb';
import {
  BackupService,
  backupSettings,
  listBackups,
  nextBackupAt,
  startBackupAgent,
  startStack,
  type BackupAgent,
  type Stack,
} from '../src';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Runs a script without blocking this process (the stack's connections stay served). */
function runScript(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('Setting > Backups through the gateway (the platform answers, not a service)', () => {
  let dir: string;
  let agent: BackupAgent;
  let stack: Stack;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-agent-test-'));
    const dataDir = path.join(dir, 'data');
    agent = await startBackupAgent({
      rootDir: ROOT,
      dataDir,
      env: { BAHI_BACKUP_DIR: path.join(dir, 'backups'), BAHI_BACKUP_COPY_DIR: path.join(dir, 'usb') },
    });
    stack = await startStack({
      dataDir,
      services: ['identity'],
      logs: 'files',
      env: { BAHI_ADMIN_PASSWORD: 'admin12345', BACKUPS_URL: agent.url },
    });
    agent.attach(stack);
  }, 120_000);

  afterAll(async () => {
    await agent?.stop();
    await stack?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, route: string, token?: string) => {
    const res = await fetch(`${stack.gatewayUrl}/api${route}`, {
      method,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    return { status: res.status, headers: res.headers, buf: Buffer.from(await res.arrayBuffer()) };
  };
  const json = (r: { buf: Buffer }) => JSON.parse(r.buf.toString('utf8'));
  const login = async (email: string, password: string) => {
    const res = await fetch(`${stack.gatewayUrl}/api/loginReact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return ((await res.json()) as { token: string }).token;
  };

  it('lists, makes, and downloads backups for the platform admin; managers and staff are refused', async () => {
    const admin = await login('admin@bahi.local', 'admin12345');
    const manager = await login('manager@demo.local', 'manager12345');
    const staff = await login('staff@demo.local', 'staff12345');

    const empty = await call('GET', '/admin/backups', admin);
    expect(empty.status).toBe(200);
    expect(json(empty)).toMatchObject({
      last_good: null,
      list: [],
      dir: path.join(dir, 'backups'),
      copy_dir: path.join(dir, 'usb'),
      copy_ok: false,
      running: false,
      at: '22:30',
    });

    expect((await call('GET', '/admin/backups', manager)).status).toBe(403);
    expect(json(await call('POST', '/admin/backups', manager))).toEqual({
      message: 'Only the platform admin manages backups.',
    });
    expect((await call('GET', '/admin/backups')).status).toBe(401);

    // The copy location is missing: managers and the admin are told; staff may not ask.
    expect(json(await call('GET', '/backupStatus', manager))).toMatchObject({
      reasons: ['copy_missing'],
      last_good: null,
    });
    expect((await call('GET', '/backupStatus', staff)).status).toBe(403);
    fs.mkdirSync(path.join(dir, 'usb'));

    const started = await call('POST', '/admin/backups', admin);
    expect(started.status).toBe(202);
    let list = json(empty);
    for (let i = 0; i < 120 && !list.list.length; i++) {
      await new Promise((r) => setTimeout(r, 500));
      list = json(await call('GET', '/admin/backups', admin));
    }
    expect(list.list).toHaveLength(1);
    const [b] = list.list;
    expect(b).toMatchObject({ good: true, copied: true, encrypted: false, problems: [] });
    expect(list.last_good).toBe(b.at);
    expect(list.copy_ok).toBe(true);
    expect(json(await call('GET', '/backupStatus', admin))).toEqual({
      reasons: [],
      last_good: b.at,
      copy_dir: path.join(dir, 'usb'),
    });

    const file = await call('GET', `/admin/backups/${b.name}`, admin);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${b.name}"`);
    expect(file.buf.equals(fs.readFileSync(path.join(dir, 'backups', b.name)))).toBe(true);
    expect((await call('GET', `/admin/backups/${b.name}`, manager)).status).toBe(403);
    expect(json(await call('GET', '/admin/backups/..%2Fdata%2Fjwt-secret', admin))).toEqual({
      message: 'There is no backup named ../data/jwt-secret.',
    });

    // `npm run backup` while the stack runs: it finds the running server (stack.json, the root
    // login) and its backup lands in the same list; `npm run restore` is refused meanwhile.
    const env = { ...process.env, BAHI_DATA_DIR: path.join(dir, 'data'), BAHI_BACKUP_DIR: path.join(dir, 'backups') };
    const backup = await runScript([path.join(ROOT, 'scripts', 'backup.mjs')], env);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain(
      '✔ good: restored into a scratch folder, every count matched, every invariant holds',
    );
    expect(json(await call('GET', '/admin/backups', admin)).list).toHaveLength(2);
    const restore = await runScript(
      [path.join(ROOT, 'scripts', 'restore.mjs'), path.join(dir, 'backups', b.name)],
      env,
    );
    expect(restore.status).toBe(1);
    expect(restore.stderr).toMatch(
      /Bahi is running on .*data \(process \d+\)\. Stop it \(Ctrl-C where npm start runs\) and restore again\./,
    );
  }, 180_000);
});

describe('the daily time and the 36-hour banner', () => {
  it("reads BAHI_BACKUP_AT on India's clock and refuses a bad one", () => {
    const at = backupSettings({ BAHI_BACKUP_AT: '22:30' }, '/r').at;
    // 16:59 UTC is 22:29 IST: today 22:30 IST = 17:00 UTC; at 17:00 UTC exactly, tomorrow's.
    expect(nextBackupAt(at, new Date('2026-11-28T16:59:00Z')).toISOString()).toBe('2026-11-28T17:00:00.000Z');
    expect(nextBackupAt(at, new Date('2026-11-28T17:00:00Z')).toISOString()).toBe('2026-11-29T17:00:00.000Z');
    // 02:00 IST is 20:30 UTC of the day before.
    expect(nextBackupAt({ hour: 2, minute: 0 }, new Date('2026-11-28T21:00:00Z')).toISOString()).toBe(
      '2026-11-29T20:30:00.000Z',
    );
    expect(backupSettings({}, '/r')).toMatchObject({ at: { hour: 22, minute: 30 }, dir: '/r/backups', copyDir: null });
    expect(() => backupSettings({ BAHI_BACKUP_AT: '25:00' }, '/r')).toThrow(
      'BAHI_BACKUP_AT must be a time of day as HH:MM on India\'s clock (for example 22:30), got "25:00".',
    );
  });

  it('warns 36 hours after the first start without a good backup, and 36 hours after the last good one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-banner-'));
    try {
      const first = new Date('2026-11-01T10:00:00Z');
      let now = first;
      const svc = new BackupService({
        dataDir: path.join(dir, 'data'),
        rootDir: ROOT,
        settings: backupSettings({ BAHI_BACKUP_DIR: path.join(dir, 'b') }, ROOT),
        now: () => now,
      });
      expect(svc.warning().reasons).toEqual([]);
      now = new Date(first.getTime() + 35 * 3_600_000);
      expect(svc.warning().reasons).toEqual([]);
      now = new Date(first.getTime() + 37 * 3_600_000);
      expect(svc.warning().reasons).toEqual(['never']);
      // A good backup 2 hours ago (its sidecar, as createBackup writes it); a failed one newer does not count.
      fs.mkdirSync(path.join(dir, 'b'));
      const side = (name: string, at: Date, good: boolean) => {
        fs.writeFileSync(path.join(dir, 'b', name), 'x');
        fs.writeFileSync(
          path.join(dir, 'b', `${name}.json`),
          JSON.stringify({
            name,
            at: at.toISOString(),
            size: 1,
            encrypted: false,
            copied: null,
            verification: { good, problems: good ? [] : ['bad'] },
          }),
        );
      };
      side('bahi-20261102-2030-pc.bahi', new Date(now.getTime() - 2 * 3_600_000), true);
      side('bahi-20261102-2230-pc.bahi', new Date(now.getTime() - 3_600_000), false);
      expect(svc.warning()).toMatchObject({
        reasons: [],
        last_good: new Date(now.getTime() - 2 * 3_600_000).toISOString(),
      });
      now = new Date(now.getTime() + 35 * 3_600_000);
      expect(svc.warning().reasons).toEqual(['stale']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it('takes the daily backup at BAHI_BACKUP_AT by itself, then drops what retention drops', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-daily-'));
    try {
      const dataDir = path.join(dir, 'data');
      const server = await EmbeddedMongo.start({ port: 0, dbPath: path.join(dataDir, 'mongo') });
      const client = await MongoClient.connect(server.uri);
      await client.db('bahi_identity').collection('companies').insertOne({ companyId: 1 });
      await client.close();
      await server.stop();
      // The service's clock stands 1.5 s before the next 22:30 in India.
      const offset = nextBackupAt({ hour: 22, minute: 30 }, new Date()).getTime() - 1500 - Date.now();
      const now = () => new Date(Date.now() + offset);
      const b = path.join(dir, 'b');
      fs.mkdirSync(b);
      // Two good backups two days back: only the later one of that day stays.
      const side = (name: string, at: Date) => {
        fs.writeFileSync(path.join(b, name), 'x');
        fs.writeFileSync(
          path.join(b, `${name}.json`),
          JSON.stringify({
            name,
            at: at.toISOString(),
            size: 1,
            encrypted: false,
            copied: null,
            verification: { good: true, problems: [] },
          }),
        );
      };
      const twoDaysBack = now().getTime() - 2 * 86_400_000;
      side('bahi-20200101-1000-pc.bahi', new Date(twoDaysBack));
      side('bahi-20200101-0900-pc.bahi', new Date(twoDaysBack - 3_600_000));
      // Leftovers of a backup killed half-way two days ago go; today's (a backup being made) stay.
      const old = new Date(Date.now() - 2 * 86_400_000);
      fs.mkdirSync(path.join(b, '.staging-killed'));
      fs.writeFileSync(path.join(b, 'bahi-20200101-0800-pc.bahi.partial'), 'x');
      fs.utimesSync(path.join(b, '.staging-killed'), old, old);
      fs.utimesSync(path.join(b, 'bahi-20200101-0800-pc.bahi.partial'), old, old);
      fs.mkdirSync(path.join(b, '.staging-fresh'));
      const svc = new BackupService({
        dataDir,
        rootDir: ROOT,
        settings: backupSettings({ BAHI_BACKUP_DIR: b, BAHI_BACKUP_AT: '22:30' }, ROOT),
        now,
        log: () => undefined,
      });
      svc.schedule();
      for (let i = 0; i < 120 && !listBackups(b).some((x) => x.name.includes('-2230-')); i++)
        await new Promise((r) => setTimeout(r, 500));
      await svc.stop();
      const names = listBackups(b).map((x) => [x.name, x.verification?.good]);
      expect(names).toHaveLength(2);
      expect(names[0][0]).toMatch(/^bahi-\d{8}-2230-[a-z0-9-]+\.bahi$/);
      expect(names[0][1]).toBe(true);
      expect(names[1]).toEqual(['bahi-20200101-1000-pc.bahi', true]);
      expect(fs.existsSync(path.join(b, 'bahi-20200101-0900-pc.bahi.json'))).toBe(false);
      expect(fs.readdirSync(b).filter((n) => n.startsWith('.') || n.endsWith('.partial'))).toEqual(['.staging-fresh']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
