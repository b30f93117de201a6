// Issue 31's Tally hand-off as an owner does it: Setting > Accountant maps Bahi's Cash ledger to the
// name the accountant's Tally company has (Devanagari and &), a walk-in's bill is paid 1,040.00 cash
// + 520.00 UPI, and Reports > GST downloads the day's Tally file, which uses the mapped name.
// Real services behind the gateway; the demo company (simple mode: one Sales ledger).
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';
import { todayIST } from '../src/dates';

let e2e: E2E;
let manager: string;
let page: Page;
const TODAY = todayIST();
// Demo catalogue (services/inventory seed): product 10, MRP 520.00.
const PLY = 10;
const GALLA = 'गल्ला & Cash';

const api = async <T = any>(method: string, p: string, body?: unknown): Promise<T> => {
  const r = await e2e.api<T>(method, p, { token: manager, body });
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'reports'] });
  manager = await managerWithCatalogue(e2e);
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 240_000);

afterAll(async () => {
  await e2e?.stop();
});

it('the manager maps Cash to the Tally name, downloads the Tally file from Reports > GST, and the file carries it', async () => {
  await page.goto('/setting');
  const card = page.getByTestId('accountant-ledgers');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  const cash = card.getByLabel('Name in Tally for Cash', { exact: true });
  expect(await cash.inputValue()).toBe('Cash');
  await cash.fill(GALLA);
  await card.getByRole('button', { name: 'Save Tally names', exact: true }).click();
  await page.getByText('The Tally ledger names were saved.').waitFor();
  await e2e.shot(page, 'tally-1-setting-accountant');
  // A clash is refused with the server's sentence beside nothing changed.
  await card.getByLabel('Name in Tally for UPI Collections', { exact: true }).fill(GALLA);
  await card.getByRole('button', { name: 'Save Tally names', exact: true }).click();
  await page.getByText(`Cash and UPI Collections would both be "${GALLA}" in Tally; give each its own name.`).waitFor();
  expect((await api<{ ledgers: { key: string; name: string }[] }>('GET', '/accountant/ledgers')).ledgers.find((l) => l.key === 'upi')!.name).toBe('UPI Collections');

  // 3 sheets of ply at 520.00 = 1,560.00: 1,040.00 cash + 520.00 UPI.
  await api('DELETE', '/clearCart/1');
  await api('GET', `/addProductIntoCart/${encodeURIComponent(`3*${PLY}`)}?cart_no=1`);
  const { saleId } = await api<{ saleId: number }>('POST', '/MAKE_SALE', { clientId: 0, cart_no: 1, paid: '1560', payments: [{ mode: 'cash', amount: '1040' }, { mode: 'upi', amount: '520', ref: 'UTR5501' }] });
  for (let i = 0; ; i++) {
    const rows = (await api<{ rows: { kind: string; ref: number }[] }>('GET', `/reports/daybook?date=${TODAY}`)).rows;
    if (rows.some((r) => r.kind === 'sale' && r.ref === saleId)) break;
    if (i > 60) throw new Error('the bill did not reach the day book');
    await new Promise((r) => setTimeout(r, 500));
  }

  await page.goto('/reports/gst');
  const tally = page.getByTestId('tally-export');
  await tally.waitFor();
  await tally.scrollIntoViewIfNeeded();
  await tally.locator('input[name="tally-from"]').fill(TODAY);
  await tally.locator('input[name="tally-to"]').fill(TODAY);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-tally').click()]);
  expect(download.suggestedFilename()).toBe(`tally-${TODAY}-to-${TODAY}.xml`);
  await e2e.shot(page, 'tally-2-reports-gst');
  const xml = fs.readFileSync(await download.path(), 'utf8');
  expect(xml).toContain('<TALLYREQUEST>Import Data</TALLYREQUEST>');
  expect(xml).toContain('<LEDGER NAME="गल्ला &amp; Cash" ACTION="Create">');
  // The bill: Sales 1,560.00 to the walk-in, then a Receipt per tender; a debit is a negative amount.
  expect(xml).toMatch(new RegExp(`<VOUCHERNUMBER>${saleId}</VOUCHERNUMBER>[\\s\\S]*?<LEDGERNAME>Walk-in Customer</LEDGERNAME>[\\s\\S]*?<AMOUNT>-1560.00</AMOUNT>[\\s\\S]*?<LEDGERNAME>Sales</LEDGERNAME>[\\s\\S]*?<AMOUNT>1560.00</AMOUNT>`));
  expect(xml).toMatch(new RegExp(`<VOUCHERNUMBER>${saleId}-R/1</VOUCHERNUMBER>[\\s\\S]*?<LEDGERNAME>गल्ला &amp; Cash</LEDGERNAME>[\\s\\S]*?<AMOUNT>-1040.00</AMOUNT>`));
  expect(xml).toMatch(new RegExp(`<VOUCHERNUMBER>${saleId}-R/2</VOUCHERNUMBER>[\\s\\S]*?<LEDGERNAME>UPI Collections</LEDGERNAME>[\\s\\S]*?<AMOUNT>-520.00</AMOUNT>`));

  // A reversed range is refused with the server's sentence.
  await tally.locator('input[name="tally-from"]').fill(TODAY);
  const before = new Date(Date.parse(`${TODAY}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await tally.locator('input[name="tally-to"]').fill(before);
  await page.getByTestId('download-tally').click();
  await page.getByText(`The start date ${TODAY} is after the end date ${before}. Choose a start on or before the end.`).waitFor();
  await e2e.shot(page, 'tally-3-refused');
}, 180_000);

it('in Hindi: the Accountant card, its refusal and the Tally card speak Hindi', async () => {
  await page.locator('.sh-profile__button').click();
  await page.getByTestId('language-hi').click();
  await page.waitForFunction(() => document.documentElement.lang === 'hi');
  await page.goto('/setting');
  const card = page.getByTestId('accountant-ledgers');
  await card.waitFor();
  await card.scrollIntoViewIfNeeded();
  await page.getByText('अकाउंटेंट (Tally)', { exact: true }).waitFor();
  await card.getByLabel('Card Collections का Tally में नाम', { exact: true }).fill(GALLA);
  await card.getByRole('button', { name: 'Tally नाम सेव करें', exact: true }).click();
  await page.getByText(`Tally में Cash और Card Collections दोनों "${GALLA}" हो जाएँगे; हर एक को अपना नाम दें।`).waitFor();
  await e2e.shot(page, 'tally-4-setting-hindi');

  await page.goto('/reports/gst');
  const tally = page.getByTestId('tally-export');
  await tally.waitFor();
  await tally.scrollIntoViewIfNeeded();
  await page.getByText('अकाउंटेंट के लिए Tally फ़ाइल', { exact: true }).waitFor();
  await tally.locator('input[name="tally-from"]').fill('2026-01-01');
  await tally.locator('input[name="tally-to"]').fill('2026-03-31');
  await page.getByRole('button', { name: 'Tally फ़ाइल डाउनलोड करें', exact: true }).click();
  await page.getByText('एक Tally फ़ाइल में ज़्यादा से ज़्यादा 31 दिन (एक महीना) आते हैं; आपने 90 चुने। एक बार में एक महीना डाउनलोड करें।').waitFor();
  await e2e.shot(page, 'tally-5-reports-hindi');
}, 120_000);
