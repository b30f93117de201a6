import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startMongo, startNats, startStack, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule } from '../src/app.module';
import { ADMIN, auth, eventually, login } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'admin-reset-password.mjs');

/** Runs `npm run admin:reset-password` (the script itself) with only the given environment. */
function resetPassword(env: Record<string, string>, args: string[] = []): Promise<{ code: number; out: string; err: string }> {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir() };
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env: { ...base, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}
const passwordIn = (out: string) => /New password: (\S+)/.exec(out)?.[1];

describe('npm run admin:reset-password, with MONGODB_URI', () => {
  let mongo: MongoHandle;
  let nats: NatsHandle;
  let svc: TestService;
  const emptyData = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-reset-empty-'));

  beforeAll(async () => {
    process.env.BAHI_ADMIN_PASSWORD = ADMIN.password;
    [mongo, nats] = await Promise.all([startMongo(), startNats()]);
    svc = await startTestService(AppModule, { service: 'identity', mongoUri: mongo.uri, natsUrl: nats.url, jwtSecret: 'reset-test-secret-0123456789abcdefgh', dbName: 'bahi_identity' });
  });
  afterAll(async () => {
    await svc?.close();
    await nats?.stop();
    await mongo?.stop();
    fs.rmSync(emptyData, { recursive: true, force: true });
  });

  it('lets a locked-out platform admin back in with a printed temporary password and ends the old sessions', async () => {
    const old = await login(svc.url, ADMIN);
    for (let i = 0; i < 5; i++) await request(svc.url).post('/loginReact').send({ email: ADMIN.email, password: `guess-${i}` });
    await request(svc.url).post('/loginReact').send(ADMIN).expect(429);

    const run = await resetPassword({ MONGODB_URI: mongo.uri, NATS_URL: nats.url, BAHI_DATA_DIR: emptyData });
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/Platform administrator admin@bahi\.local: password reset/);
    expect(run.out).toMatch(/running services were told at once/);
    const fresh = passwordIn(run.out)!;
    expect(fresh.length).toBeGreaterThanOrEqual(12);

    const back = await login(svc.url, { email: ADMIN.email, password: fresh });
    expect(back.body.forceChange).toBe(true);
    await request(svc.url).get('/admin/companyList').set(auth(back.token)).expect(403);
    await eventually(async () => {
      await request(svc.url).get('/admin/companyList').set(auth(old.token)).expect(401);
    });
    await request(svc.url).post('/loginReact').send(ADMIN).expect(401);

    // A chosen password, and bad input changes nothing.
    const short = await resetPassword({ MONGODB_URI: mongo.uri, BAHI_DATA_DIR: emptyData }, ['--password', 'short']);
    expect(short.code).not.toBe(0);
    expect(short.err).toMatch(/at least 8 characters/);
    const nobody = await resetPassword({ MONGODB_URI: mongo.uri, BAHI_DATA_DIR: emptyData }, ['--email', 'ghost@bahi.local']);
    expect(nobody.err).toMatch(/No platform administrator with the e-mail ghost@bahi\.local/);
    await login(svc.url, { email: ADMIN.email, password: fresh });
    const chosen = await resetPassword({ MONGODB_URI: mongo.uri, BAHI_DATA_DIR: emptyData }, ['--password', 'chosen-on-the-box']);
    expect(passwordIn(chosen.out)).toBe('chosen-on-the-box');
    expect((await login(svc.url, { email: ADMIN.email, password: 'chosen-on-the-box' })).body.forceChange).toBe(true);
  });
});

describe('npm run admin:reset-password, on the data of `npm start` (embedded server, credentials in the data folder)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-reset-data-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts the embedded server on the stopped data, resets, and the next start accepts the new password', async () => {
    const env = { BAHI_DEMO: '0', BAHI_ADMIN_PASSWORD: '' };
    let stack = await startStack({ rootDir: ROOT, services: ['identity'], dataDir, logs: 'files', env });
    try {
      const first = await request(stack.gatewayUrl).post('/api/loginReact').send(ADMIN).expect(200);
      expect(first.body.forceChange).toBe(true);
    } finally {
      await stack.stop();
    }
    expect(fs.existsSync(path.join(dataDir, 'mongo-credentials.json'))).toBe(true);

    const run = await resetPassword({ BAHI_DATA_DIR: dataDir, NATS_URL: 'nats://127.0.0.1:1' });
    expect(run.err).toBe('');
    expect(run.out).toMatch(new RegExp(`through the data in ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    const fresh = passwordIn(run.out)!;

    stack = await startStack({ rootDir: ROOT, services: ['identity'], dataDir, logs: 'files', env });
    try {
      await request(stack.gatewayUrl).post('/api/loginReact').send(ADMIN).expect(401);
      const back = await request(stack.gatewayUrl).post('/api/loginReact').send({ email: ADMIN.email, password: fresh }).expect(200);
      expect(back.body.forceChange).toBe(true);
    } finally {
      await stack.stop();
    }
  });
});
