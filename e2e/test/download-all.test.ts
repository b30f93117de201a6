// Manager > Setting > "Download all data": the button saves one zip of the company's XLSX lists.
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E } from '../src/harness';

let e2e: E2E;
let page: Page;

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  page = await e2e.newPage();
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
});

it('a manager clicks Download all data and gets a zip of XLSX lists, the products as the list shows them', async () => {
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  await page.goto('/setting');
  const button = page.getByTestId('download-all');
  await button.waitFor();
  await button.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^bahi-all-data-\d{4}-\d\d-\d\d\.zip$/);
  await page.getByText('Your data was downloaded.').waitFor();
  await e2e.shot(page, 'download-all-1-setting');

  const zip = await JSZip.loadAsync(fs.readFileSync(await download.path()));
  expect(Object.keys(zip.files).sort()).toEqual([
    'credit-notes.xlsx', 'customers.xlsx', 'debit-notes.xlsx', 'distributors.xlsx', 'estimates.xlsx', 'ledgers.xlsx', 'payments.xlsx',
    'products.xlsx', 'purchase-lines.xlsx', 'purchases.xlsx', 'sale-lines.xlsx', 'sales.xlsx', 'stock-movements.xlsx',
  ]);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await zip.file('products.xlsx')!.async('nodebuffer')) as unknown as ArrayBuffer);
  // Every product of the demo company, one row each below the header.
  const count = await page.evaluate(async () => {
    const token = localStorage.getItem('token') ?? sessionStorage.getItem('token');
    const r = await fetch('/api/getProductList?pageNo=0', { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return ((await r.json()) as { count: number }).count;
  });
  expect(count).toBeGreaterThan(0);
  expect(book.worksheets[0]!.rowCount - 1).toBe(count);
}, 120_000);
