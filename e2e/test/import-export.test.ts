import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';

let e2e: E2E;
let page: Page;
let manager: string;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-import-'));

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger'] });
  manager = await managerWithCatalogue(e2e);
  page = await e2e.newPage();
}, 180_000);

afterAll(async () => {
  await e2e?.stop();
  fs.rmSync(TMP, { recursive: true, force: true });
});

// "Sticker" is no name the import knows for the MRP: the person matches it by hand. Row 4's cost is not a number.
const SHEET = [
  'Item Name,Brand,Category,Sticker,Purchase Price,Unit,Barcode,Opening Stock',
  'Kesar Pista Kulfi,E2E Dairy,Frozen,60,42.50,pcs,8909990000011,24',
  'Mango Kulfi,E2E Dairy,Frozen,55,38,pcs,8909990000028,30',
  'Rose Kulfi,E2E Dairy,Frozen,55,cheap,pcs,8909990000035,10',
].join('\n');

describe('import and export', () => {
  it('imports a CSV with one bad row after fixing the mapping, then exports the list as XLSX and reads it back', async () => {
    await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
    await page.goto('/productItem');
    await page.getByTestId('product-list').waitFor();
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByTestId('import-wizard').waitFor();
    await e2e.shot(page, 'import-1-upload');

    const file = path.join(TMP, 'kulfi.csv');
    fs.writeFileSync(file, SHEET);
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-upload').click();
    await page.getByTestId('import-mapping').waitFor();
    const mrp = page.locator('select[data-field="mrp"]');
    // Not guessed: "Sticker" is no MRP header the import knows.
    expect(await mrp.inputValue()).toBe('-1');
    expect(await page.locator('select[data-field="cp"]').inputValue()).toBe('4');
    await mrp.selectOption({ label: 'Sticker' });
    expect(await page.getByTestId('import-preview').locator('tbody tr').count()).toBe(3);
    await e2e.shot(page, 'import-2-mapping');

    await page.getByTestId('import-check').click();
    const report = page.getByTestId('import-report');
    await report.waitFor();
    // Three divs: "3 rows", "2 valid", "1 with errors".
    expect(await report.locator(':scope > div').allTextContents()).toEqual(['3 rows', '2 valid', '1 with errors']);
    const errors = page.getByTestId('import-errors');
    expect((await errors.locator('tbody tr').first().locator('td').allTextContents()).map((t) => t.trim())).toEqual(['4', 'Cost price', 'Cost price must be a number.']);
    await page.getByText('New categories will be created: Frozen.').waitFor();
    await e2e.shot(page, 'import-3-report');

    await page.getByTestId('mode-valid').check();
    await page.getByTestId('import-run').click();
    await page.getByTestId('import-done').waitFor({ timeout: 60_000 });
    expect((await page.getByTestId('import-summary').textContent())?.replace(/\s+/g, ' ').trim()).toBe('3 of 3 rows · 2 added · 0 updated · 1 skipped');
    await e2e.shot(page, 'import-4-done');

    // The products are there, with their opening stock.
    await page.getByTestId('import-done').click();
    await page.getByTestId('product-list').waitFor();
    await page.getByLabel('Brand').selectOption('E2E Dairy');
    await page.getByRole('button', { name: 'Filter' }).click();
    const rows = page.getByTestId('product-list').locator('tbody tr');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="product-list"] tbody tr').length === 2 && document.body.innerText.includes('Mango Kulfi'));
    const texts = (await rows.allTextContents()).join(' | ');
    expect(texts).toContain('Kesar Pista Kulfi');
    expect(texts).toContain('24 pcs');
    expect(texts).not.toContain('Rose Kulfi');
    // Stock count 24 + 30 = 54; stock value at cost 24 x 42.50 + 30 x 38 = 1020 + 1140 = 2160.
    expect(await page.getByTestId('total-stock').textContent()).toBe('54');
    expect(await page.getByTestId('total-amount').textContent()).toContain('2,160.00');
    await e2e.shot(page, 'import-5-products');

    // Export the filtered list as XLSX and read it back.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-products').getByRole('button', { name: 'Export XLSX' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const saved = path.join(TMP, download.suggestedFilename());
    await download.saveAs(saved);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(saved);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(2).value).toBe('Product name');
    const got: unknown[][] = [];
    ws.eachRow((r, n) => n > 1 && got.push([r.getCell(2).value, r.getCell(3).value, r.getCell(7).value, r.getCell(8).value, r.getCell(9).value, r.getCell(15).value]));
    expect(got).toEqual([
      ['Kesar Pista Kulfi', 'E2E Dairy', 60, 42.5, 24, '8909990000011'],
      ['Mango Kulfi', 'E2E Dairy', 55, 38, 30, '8909990000028'],
    ]);
    // The same file imported again updates by barcode instead of adding.
    const count = (await e2e.api<{ count: number }>('GET', '/getProductList?brand=E2E%20Dairy', { token: manager })).body.count;
    expect(count).toBe(2);
  });

  it('imports customers from the customer list and exports them as CSV', async () => {
    await page.goto('/clientList');
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByTestId('import-wizard').waitFor();
    const file = path.join(TMP, 'customers.csv');
    fs.writeFileSync(file, ['Customer Name,Mobile No,Address,City,State,Pincode,Opening Balance', 'Kavya Stores,9812300001,4 Station Road,Nashik,Maharashtra,422001,750.50'].join('\n'));
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-upload').click();
    await page.getByTestId('import-check').click();
    await page.getByTestId('import-report').waitFor();
    await page.getByTestId('mode-all').check();
    await page.getByTestId('import-run').click();
    await page.getByTestId('import-done').waitFor({ timeout: 60_000 });
    expect((await page.getByTestId('import-summary').textContent())?.replace(/\s+/g, ' ').trim()).toBe('1 of 1 rows · 1 added · 0 updated · 0 skipped');
    await e2e.shot(page, 'import-6-customers');
    await page.getByTestId('import-done').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-customers').getByRole('button', { name: 'Export CSV' }).click()]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    expect(text).toContain('Kavya Stores,9812300001,4 Station Road,,Nashik,Maharashtra,422001,India,,750.50');
    await e2e.shot(page, 'import-7-customer-list');
  });
});
