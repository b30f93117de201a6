import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBackupAgent, type BackupAgent } from '@bahi/devstack';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

// Setting > Backups of the platform admin and the managers' banner, against the platform's
// backup agent as `npm start` runs it (the gateway forwards to it through BACKUPS_URL).
let e2e: E2E;
let agent: BackupAgent;
let dir: string;
const ROOT = path.resolve(__dirname, '..', '..');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-e2e-backups-'));
  agent = await startBackupAgent({
    rootDir: ROOT,
    dataDir: path.join(dir, 'agent'),
    env: { BAHI_BACKUP_DIR: path.join(dir, 'backups'), BAHI_BACKUP_COPY_DIR: path.join(dir, 'usb') },
  });
  e2e = await startE2E({ env: { BACKUPS_URL: agent.url } });
  agent.attach(e2e.stack);
}, 180_000);

afterAll(async () => {
  await agent?.stop();
  await e2e?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the admin backs up now, sees it verified and copied; the banner names the missing copy drive until it is there', async () => {
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.admin.email, ACCOUNTS.admin.password);
  await page.waitForURL('**/admin');
  // The copy location (a USB drive) is not plugged in: the banner says so on every admin page.
  const banner = page.getByTestId('backup-banner');
  await banner.waitFor();
  expect(await banner.innerText()).toBe(
    `The backup copy location ${path.join(dir, 'usb')} is missing: plug in the backup drive or reconnect the share.`,
  );

  await page.getByRole('link', { name: 'Backups' }).click();
  await page.waitForURL('**/admin/backups');
  await page.getByTestId('backups').waitFor();
  expect(await page.getByTestId('backups-last-good').innerText()).toBe('None yet');
  expect(await page.getByTestId('backup-list').innerText()).toContain('No backups yet.');
  expect(await page.getByTestId('backups-copy').innerText()).toContain(
    'Missing: plug in the backup drive or reconnect the share.',
  );

  fs.mkdirSync(path.join(dir, 'usb'));
  await page.getByTestId('backup-now').click();
  const row = page.getByTestId('backup-row');
  await row.first().waitFor({ timeout: 90_000 });
  const cells = await row.first().locator('td').allInnerTexts();
  expect(cells[1]).toMatch(/^bahi-\d{8}-\d{4}-[a-z0-9-]+\.bahi$/);
  expect(cells[3]).toBe('Good');
  expect(cells[4]).toBe('Yes');
  expect(await page.getByTestId('backups-last-good').innerText()).not.toBe('None yet');
  expect(fs.readdirSync(path.join(dir, 'usb'))).toEqual([cells[1]]);

  // Download: the same bytes as the file in the backup folder.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.first().getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(cells[1]);
  const saved = path.join(dir, 'downloaded.bahi');
  await download.saveAs(saved);
  expect(fs.readFileSync(saved).equals(fs.readFileSync(path.join(dir, 'backups', cells[1])))).toBe(true);

  await page.reload();
  await page.getByTestId('backup-row').first().waitFor();
  expect(await page.getByTestId('backup-banner').count()).toBe(0);
  await e2e.shot(page, 'admin-backups');
}, 180_000);

test('a manager sees the banner while the copy drive is missing, and is refused the backups themselves', async () => {
  fs.rmSync(path.join(dir, 'usb'), { recursive: true, force: true });
  const page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  const banner = page.getByTestId('backup-banner');
  await banner.waitFor();
  expect(await banner.innerText()).toContain('is missing: plug in the backup drive or reconnect the share.');
  await e2e.shot(page, 'manager-backup-banner');

  const token = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.manager })).body.token;
  expect((await e2e.api('GET', '/admin/backups', { token })).status).toBe(403);
  expect((await e2e.api('POST', '/admin/backups', { token })).status).toBe(403);
  const staff = (await e2e.api<{ token: string }>('POST', '/loginReact', { body: ACCOUNTS.staff })).body.token;
  expect((await e2e.api('GET', '/backupStatus', { token: staff })).status).toBe(403);
}, 120_000);
