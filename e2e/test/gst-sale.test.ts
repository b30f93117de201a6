// GST mode at the counter (sales remote), in Chromium through the gateway: a manager switches the
// company to GST mode in Setting, sets two products' rates in the catalogue, and sells the issue's
// worked example with the keyboard, to a B2B customer in Gujarat (IGST) and to the walk-in
// (CGST + SGST). The cart, the sell panel, the bill view and the invoice PDF show the same figures.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BillDetailsReply, GetProductsReply } from '@bahi/contracts';
import type { Locator, Page } from 'playwright-core';
import { ACCOUNTS, login, startE2E, type E2E, managerWithCatalogue, gstr1SchemaErrors, PagePerTest } from '../src/harness';

const COMPANY_GSTIN = '27AAPFU0939F1ZV'; // Maharashtra (27)
const CUSTOMER_GSTIN = '24AAGCS5678K1ZT'; // Gujarat (24)
// Demo catalogue products repriced for the worked example: 590.00 incl. 18 % and 100.00 excl. 12 %.
const PLY = { id: 10, barcode: '89012100010', name: 'Commercial Plywood 4mm', mrp: '590', rate: '18', hsn: '4412', includes: true };
const LOCK = { id: 25, barcode: '89012100025', name: 'Godrej Ultra Mortise Lock', mrp: '100', rate: '12', hsn: '8301', includes: false };
const INVOICE_NO = /^GT\/\d{2}-\d{2}\/\d{4}$/;

let e2e: E2E;
let page: Page;
let manager: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-gst-sale-'));

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales', 'documents'] });
  manager = await managerWithCatalogue(e2e);
}, 180_000);
// Each test signs in on its own page: a renderer crash costs that test (run once more on a fresh
// page), not the tests after it. What carries over between tests is the server's data.
const pages = PagePerTest.eachTest(
  () => e2e,
  async (p) => {
    page = p;
    await login(p, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
  },
);
afterAll(async () => {
  await e2e?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const text = async (loc: Locator) => ((await loc.textContent()) ?? '').trim();
const byId = (id: string) => page.getByTestId(id);
/** Waits until a test id shows exactly `value` (server replies update the screen). */
async function shows(loc: Locator, value: string) {
  await loc.filter({ hasText: value }).first().waitFor();
  expect(await text(loc.first())).toBe(value);
}
const entry = () => byId('product-entry');
async function scan(code: string) {
  await entry().fill(code);
  await entry().press('Enter');
}
const line = (p: { id: number }) => byId(`line-${p.id}`);

/** The invoice PDF through the gateway, read back with pdftotext. */
async function invoicePdf(saleId: number): Promise<string> {
  const res = await fetch(`${e2e.baseUrl}/api/documents/bill/${saleId}`, { headers: { Authorization: `Bearer ${manager}` } });
  expect(res.status).toBe(200);
  const file = path.join(tmp, `bill-${saleId}.pdf`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** Confirms the open sell panel with Enter; on the bill view, the invoice number with serial `serial`. */
async function confirmAndReadInvoiceNo(serial: string): Promise<string> {
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
  await byId('bill').waitFor();
  const invoiceNo = await text(byId('bill-invoice-no'));
  expect(invoiceNo).toMatch(INVOICE_NO);
  expect(invoiceNo.endsWith(`/${serial}`)).toBe(true);
  return invoiceNo;
}
/** F4, type part of the name, pick the first suggestion with the arrow keys. */
async function pickCustomer(name: string) {
  await page.keyboard.press('F4');
  await page.keyboard.type(name);
  await byId('customer-suggestions').waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await byId('current-customer').filter({ hasText: name }).waitFor();
}

/** Nothing is wider than the window, and no card's content spills out of it. */
async function noOverflow() {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page ${doc.scrollWidth} > ${doc.clientWidth}`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.sl-card, .sl-bill, .bk-modal, [role=dialog]'))) {
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${el.className} ${el.scrollWidth} > ${el.clientWidth}`);
    }
    return out;
  });
  expect(problems).toEqual([]);
}
async function shotsAtWidths(name: string) {
  for (const width of [1366, 1024]) {
    await page.setViewportSize({ width, height: 768 });
    await page.waitForTimeout(150);
    await e2e.shot(page, `${name}-${width}`);
    await noOverflow();
  }
  await page.setViewportSize({ width: 1366, height: 800 });
}

/** Fills an empty cart with the worked example using the keyboard: scan codes with quantities, a discount. */
async function fillExample() {
  // Whatever an earlier test left in the cart (the server keeps it) is cleared first.
  expect((await e2e.api('DELETE', '/clearCart/1', { token: manager })).status).toBe(200);
  await page.goto('/');
  await entry().waitFor();
  await page.keyboard.press('F2');
  await page.keyboard.type(`3*${PLY.barcode}`);
  await page.keyboard.press('Enter');
  await line(PLY).waitFor();
  await page.keyboard.type(`2*${LOCK.barcode}`);
  await page.keyboard.press('Enter');
  await line(LOCK).waitFor();
  const disc = line(LOCK).getByLabel(`Discount on ${LOCK.name}`);
  await disc.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('5');
  await page.keyboard.press('Enter'); // saved on leaving the box
  await line(LOCK).getByTestId('line-amount').filter({ hasText: '190.0' }).waitFor();
}

describe('a GST-mode sale at the counter', () => {
  it('the manager switches the company to GST mode in Setting and sets the two products in the catalogue', pages.test(async () => {
    await page.locator('.sh-profile__button').click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Setting' }).click();
    await page.waitForURL('**/setting');
    await page.getByLabel('Tax mode').selectOption('gst');
    await page.getByLabel(/^GSTIN/).fill(COMPANY_GSTIN);
    await page.getByLabel('Invoice prefix').fill('GT');
    await page.getByLabel('Invoice prefix').press('Enter');
    await page.getByTestId('alert').filter({ hasText: 'Profile Updated.' }).waitFor();
    expect((await e2e.api<Record<string, unknown>>('GET', '/getCompanyDetails', { token: manager })).body).toMatchObject({
      tax_mode: 'gst',
      gstin: COMPANY_GSTIN,
      state_code: '27',
      invoice_prefix: 'GT',
    });

    for (const p of [PLY, LOCK]) {
      await page.goto(`/productItem/${p.id}`);
      await page.getByRole('button', { name: 'Edit Details' }).click();
      await page.getByLabel('MRP').fill(p.mrp);
      await page.getByLabel('Tax %').fill(p.rate);
      await page.getByLabel('HSN code').fill(p.hsn);
      const includes = page.getByRole('checkbox', { name: 'Price includes tax' });
      if ((await includes.isChecked()) !== p.includes) await includes.click();
      await page.getByLabel('HSN code').press('Enter');
      await page.getByTestId('alert').filter({ hasText: 'Product saved.' }).waitFor();
      const saved = (await e2e.api<{ product: Record<string, unknown> }>('GET', `/getProductDetails?id=${p.id}`, { token: manager })).body.product;
      expect(saved).toMatchObject({ tax_percent: p.rate, hsn_code: p.hsn, price_includes_tax: p.includes });
      expect(Number(saved.mrp)).toBe(Number(p.mrp));
    }
  }));

  it('the cart shows the walk-in invoice, no Tax checkbox, and each line its GST rate and taxable value', pages.test(async () => {
    await fillExample();
    const summary = byId('summary');
    await shows(summary.getByTestId('gst-cgst'), '₹146.40');
    expect(await text(summary.getByTestId('gst-sgst'))).toBe('₹146.40');
    expect(await text(summary.getByTestId('gst-taxable'))).toBe('₹1,690.00');
    expect(await text(summary.getByTestId('gst-round-off'))).toBe('+₹0.20');
    expect(await text(summary.getByTestId('total'))).toBe('₹1,983.00');
    expect(await text(summary.getByTestId('gst-pos'))).toBe('Maharashtra (27)');
    expect(await summary.getByTestId('gst-igst').count()).toBe(0);
    expect(await summary.getByTestId('tax').count()).toBe(0); // the spec's Tax (18%) checkbox does not apply
    expect(await summary.getByText('Invoice value').count()).toBe(1);
    expect(await text(line(PLY).getByTestId('line-gst'))).toBe('18% on 1,500.00');
    expect(await text(line(LOCK).getByTestId('line-gst'))).toBe('12% on 190.00');
    // The server's figures are the same.
    const cart = (await e2e.api<GetProductsReply>('GET', '/getProducts?cart_no=1', { token: manager })).body;
    expect(cart.summery.total).toBe(1983);
    expect(cart.summery.gst).toMatchObject({ taxable_total: 1690, cgst_total: 146.4, sgst_total: 146.4, igst_total: 0, round_off: 0.2, invoice_value: 1983 });
    await shotsAtWidths('gst-sale-cart-walkin');
  }));

  it('sells to a B2B customer in Gujarat with the keyboard: IGST in the cart and the sell panel, the invoice number on the bill and in the PDF', pages.test(async () => {
    await fillExample();
    await shows(byId('summary').getByTestId('gst-cgst'), '₹146.40'); // the server has priced the discount
    // A new customer from the cart's Add Customer becomes the cart's customer.
    // Issue 32: the name typed in the search is carried in; in GST mode the form starts in the company's
    // state (27), and the GSTIN typed fills the customer's (24).
    await page.getByLabel('Search customer', { exact: true }).fill('Surat Traders');
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const form = page.getByTestId('customer-form');
    await valueIs('customer-form-name', 'Surat Traders');
    await valueIs('customer-form-state', '27');
    await form.getByLabel('Mobile').fill('9825012345');
    await form.getByLabel('City').fill('Surat');
    await form.getByLabel('Zip').fill('395003');
    await form.getByLabel('GSTIN').fill(CUSTOMER_GSTIN);
    await valueIs('customer-form-state', '24');
    await e2e.shot(page, 'gst-sale-add-customer-from-search');
    await form.getByLabel('GSTIN').press('Enter');
    await byId('current-customer').filter({ hasText: 'Surat Traders' }).waitFor();

    // Priced for them: place of supply Gujarat, IGST.
    const summary = byId('summary');
    await shows(summary.getByTestId('gst-igst'), '₹292.80');
    expect(await text(summary.getByTestId('gst-pos'))).toBe('Gujarat (24)');
    expect(await summary.getByTestId('gst-cgst').count()).toBe(0);
    expect(await text(summary.getByTestId('gst-taxable'))).toBe('₹1,690.00');
    expect(await text(summary.getByTestId('total'))).toBe('₹1,983.00');
    await e2e.shot(page, 'gst-sale-cart-b2b');

    // F9 opens the sell panel: the invoice, the amount due, Paid defaulting to the invoice value.
    await page.keyboard.press('F9');
    const panel = byId('sell-panel');
    await shows(panel.getByTestId('sell-igst'), '₹292.80');
    expect(await text(panel.getByTestId('sell-taxable'))).toBe('₹1,690.00');
    expect(await text(panel.getByTestId('sell-round-off'))).toBe('+₹0.20');
    expect(await text(panel.getByTestId('sell-invoice-value'))).toBe('₹1,983.00');
    expect(await text(panel.getByTestId('sell-previous-due'))).toBe('₹0.00');
    expect(await text(panel.getByTestId('sell-amount-due'))).toBe('₹1,983.00');
    expect(await panel.getByTestId('sell-paid').inputValue()).toBe('1983');
    await shotsAtWidths('gst-sale-sell-panel');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('1000');
    await page.keyboard.press('Enter');

    // The invoice number is announced and the bill view is a tax invoice.
    const announced = page.getByTestId('alert').filter({ hasText: /Invoice GT\/\d{2}-\d{2}\/0001 made\./ });
    await announced.first().waitFor();
    await page.waitForURL(/\/salesList\/bill\/print\/\d+$/);
    const saleId = Number(page.url().split('/').pop());
    const bill = byId('bill');
    await bill.waitFor();
    const invoiceNo = await text(byId('bill-invoice-no'));
    expect(invoiceNo).toMatch(INVOICE_NO);
    expect(invoiceNo.endsWith('/0001')).toBe(true);
    expect(await text(byId('bill-document'))).toBe('Tax Invoice');
    expect(await text(byId('bill-place-of-supply'))).toBe('Place of supply: Gujarat (24)');
    expect(await text(byId('bill-customer-gstin'))).toBe(CUSTOMER_GSTIN);
    expect(await text(byId('bill-company-gstin'))).toBe(`GSTIN ${COMPANY_GSTIN}`);
    expect(await text(byId('bill-taxable'))).toBe('₹1,690.00');
    expect(await text(byId('bill-igst'))).toBe('₹292.80');
    expect(await byId('bill-cgst').count()).toBe(0);
    expect(await text(byId('bill-round-off'))).toBe('+₹0.20');
    expect(await text(byId('bill-invoice-value'))).toBe('₹1,983.00');
    // Below the invoice: previous due, total, paid, due.
    expect(await text(byId('bill-previous-due'))).toBe('₹0.00');
    expect(await text(byId('bill-total'))).toBe('₹1,983.00');
    expect(await text(byId('bill-paid'))).toBe('₹1,000.00');
    expect(await text(byId('bill-due'))).toBe('₹983');
    const ply = byId(`bill-line-${PLY.id}`);
    expect(await text(ply.getByTestId('bill-line-taxable'))).toBe('₹1,500.00');
    expect(await text(ply.getByTestId('bill-line-igst'))).toBe('₹270.00');
    expect(await ply.getByText('4412', { exact: true }).count()).toBe(1);
    const lock = byId(`bill-line-${LOCK.id}`);
    expect(await text(lock.getByTestId('bill-line-taxable'))).toBe('₹190.00');
    expect(await text(lock.getByTestId('bill-line-igst'))).toBe('₹22.80');
    await shotsAtWidths('gst-sale-bill-b2b');

    const details = (await e2e.api<BillDetailsReply>('GET', `/getBillDetails?id=${saleId}`, { token: manager })).body.saleDetails;
    expect(details).toMatchObject({ invoice_no: invoiceNo, place_of_supply: '24', igst_total: 292.8, invoice_value: 1983, round_off: 0.2 });

    // The A4 tax invoice (documents) prints the same figures.
    const pdfText = await invoicePdf(saleId);
    for (const t of ['Tax Invoice', `Invoice No: ${invoiceNo}`, `GSTIN: ${CUSTOMER_GSTIN}`, 'Place of supply: Gujarat (24)', '1,690.00', '292.80', '+0.20', '₹1,983.00', 'Rupees One Thousand Nine Hundred Eighty Three Only']) {
      expect(pdfText).toContain(t);
    }
    expect(pdfText).not.toMatch(/\bCGST\b/);

    // The sales list shows the invoice number.
    await page.goto('/salesList');
    await byId('sales-list').getByText(invoiceNo).waitFor();
    await page.getByRole('columnheader', { name: 'Invoice No' }).waitFor();
    await e2e.shot(page, 'gst-sale-list');
  }));

  it('the same cart to the walk-in: CGST and SGST 146.40 each, the next invoice number', pages.test(async () => {
    await fillExample();
    await shows(byId('summary').getByTestId('gst-sgst'), '₹146.40');
    expect(await text(byId('current-customer'))).toBe('Unknown');
    await page.keyboard.press('F9');
    const panel = byId('sell-panel');
    await shows(panel.getByTestId('sell-cgst'), '₹146.40');
    expect(await text(panel.getByTestId('sell-sgst'))).toBe('₹146.40');
    expect(await panel.getByTestId('sell-paid').inputValue()).toBe('1983');
    const invoiceNo = await confirmAndReadInvoiceNo('0002');
    expect(await text(byId('bill-place-of-supply'))).toBe('Place of supply: Maharashtra (27)');
    expect(await text(byId('bill-cgst'))).toBe('₹146.40');
    expect(await text(byId('bill-sgst'))).toBe('₹146.40');
    expect(await byId('bill-igst').count()).toBe(0);
    expect(await text(byId('bill-invoice-value'))).toBe('₹1,983.00');
    expect(await byId('bill-previous-due').count()).toBe(0); // the walk-in has no account
    await e2e.shot(page, 'gst-sale-bill-walkin');
    const pdfText = await invoicePdf(Number(page.url().split('/').pop()));
    for (const t of [invoiceNo, 'Place of supply: Maharashtra (27)', '146.40', '+0.20', '₹1,983.00']) expect(pdfText).toContain(t);
    expect(pdfText).toMatch(/CGST\s+146\.40/);
    expect(pdfText).toMatch(/SGST\s+146\.40/);
    expect(pdfText).not.toMatch(/\bIGST\b/);
  }));
  it('an estimate for the Gujarat customer shows IGST in the editor and its sale takes the next invoice number', pages.test(async () => {
    await fillExample();
    await pickCustomer('Surat Traders');
    await byId('save-estimate').click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await page.waitForURL((u) => u.pathname === '/estimateList');
    await byId('estimate-list').locator('tbody tr').first().click();
    await byId('estimate-editor').waitFor();
    await shows(byId('estimate-gst-igst'), '₹292.80');
    expect(await text(byId('estimate-gst-pos'))).toBe('Gujarat (24)');
    expect(await text(byId('estimate-gst-taxable'))).toBe('₹1,690.00');
    expect(await text(byId('estimate-total'))).toBe('₹1,983.00');
    expect(await byId('estimate-tax').count()).toBe(0);
    expect(await text(line(LOCK).getByTestId('line-gst'))).toBe('12% on 190.00');
    await shotsAtWidths('gst-sale-estimate');

    await page.getByRole('button', { name: 'Proceed to Sell' }).click();
    await shows(byId('sell-panel').getByTestId('sell-igst'), '₹292.80');
    expect(await text(byId('sell-amount-due'))).toBe('₹2,966.00'); // 1,983.00 + the 983.00 still owed on the first invoice
    await confirmAndReadInvoiceNo('0003');
    expect(await text(byId('bill-igst'))).toBe('₹292.80');
    expect(await text(byId('bill-invoice-value'))).toBe('₹1,983.00');
    expect(await text(byId('bill-previous-due'))).toBe('₹983.00');
  }));

  it('a product without an HSN code: the summary says so and Proceed to Sell refuses with that sentence', pages.test(async () => {
    const NO_HSN = { id: 3, barcode: '89012100003', name: 'Greenply Ecotec 6mm Plywood' };
    await page.goto(`/productItem/${NO_HSN.id}`);
    await page.getByRole('button', { name: 'Edit Details' }).click();
    await page.getByLabel('HSN code').fill('');
    await page.getByLabel('HSN code').press('Enter');
    await page.getByTestId('alert').filter({ hasText: 'Product saved.' }).waitFor();
    const sales = async () => (await e2e.api<{ salesList: unknown[] }>('GET', '/getSaleList?pageNo=0', { token: manager })).body.salesList.length;
    const before = await sales();

    await page.goto('/');
    await entry().waitFor();
    await scan(NO_HSN.barcode);
    await line(NO_HSN).waitFor();
    const error = byId('gst-error');
    await error.waitFor();
    const sentence = await text(error);
    expect(sentence).toContain(NO_HSN.name);
    expect(sentence).toContain('HSN');
    await e2e.shot(page, 'gst-sale-no-hsn');
    await page.keyboard.press('F9');
    await page.getByTestId('alert').filter({ hasText: sentence }).first().waitFor();
    expect(await byId('sell-panel').count()).toBe(0);
    await byId('proceed-sell').click();
    expect(await byId('sell-panel').count()).toBe(0);
    expect(await sales()).toBe(before);
    await byId('clear-cart').click();
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    await page.getByText('The cart is empty.').waitFor();
  }));
  it("the month's GSTR-1 downloaded from Reports holds these invoices and is valid against the schema", pages.test(async () => {
    const month = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 7); // IST
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await page.waitForURL('**/reports/gst');
    await page.getByTestId('gst-period').fill(month);
    await page.getByTestId('gst-b2b').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
    const gstr1 = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(gstr1SchemaErrors(gstr1)).toEqual([]);
    // The Gujarat customer's two invoices (the cart's and the estimate's), the walk-in's in b2cs.
    expect(gstr1.gstin).toBe(COMPANY_GSTIN);
    expect(gstr1.b2b).toHaveLength(1);
    expect(gstr1.b2b[0].ctin).toBe(CUSTOMER_GSTIN);
    expect(gstr1.b2b[0].inv.map((i: { inum: string; val: number; pos: string }) => [i.inum.slice(-4), i.val, i.pos])).toEqual([
      ['0001', 1983, '24'],
      ['0003', 1983, '24'],
    ]);
    expect(gstr1.b2cs).toEqual(expect.arrayContaining([expect.objectContaining({ sply_ty: 'INTRA', pos: '27', rt: 18, txval: 1500, camt: 135, samt: 135 })]));
    expect(gstr1.doc_issue.doc_det[0].docs[0]).toMatchObject({ totnum: 3, cancel: 0, net_issue: 3 });
    await e2e.shot(page, 'gst-sale-gstr1');
  }));

  it('composition mode: a bill of supply without tax to the walk-in; the Gujarat customer is refused (no inter-state supply)', pages.test(async () => {
    const company = (await e2e.api<Record<string, unknown>>('GET', '/getCompanyDetails', { token: manager })).body;
    const set = await e2e.api('POST', '/setCompanyDetails', {
      token: manager,
      body: { id: company.id, name: company.name, add1: company.add1, add2: company.add2, mob1: company.mob1, mob2: company.mob2, email: company.email, tax_mode: 'composition', gstin: COMPANY_GSTIN, invoice_prefix: 'GT' },
    });
    expect(set.status).toBe(200);
    await fillExample();
    const summary = byId('summary');
    // No tax is collected: the bill is the goods' value, 1,770.00 + 190.00.
    await shows(summary.getByTestId('total'), '₹1,960.00');
    expect(await text(summary.locator('.sl-badge'))).toBe('Bill of Supply');
    expect(await summary.getByText('Bill value').count()).toBe(1);
    expect(await summary.getByTestId('gst-cgst').count()).toBe(0);
    expect(await summary.getByTestId('gst-igst').count()).toBe(0);
    expect(await text(summary.getByTestId('gst-round-off'))).toBe('₹0.00');
    expect(await line(PLY).getByTestId('line-gst').count()).toBe(0); // no rate on a bill of supply's lines

    // The Gujarat customer: the server's sentence, and the sale is refused.
    await pickCustomer('Surat Traders');
    const error = byId('gst-error');
    await error.waitFor();
    const sentence = await text(error);
    expect(sentence).toContain('inter-state');
    expect(await text(summary.getByTestId('total'))).toBe('—');
    await e2e.shot(page, 'gst-sale-composition-interstate');
    await page.keyboard.press('F9');
    await page.getByTestId('alert').filter({ hasText: sentence }).first().waitFor();
    expect(await byId('sell-panel').count()).toBe(0);

    // Back to the walk-in: sold as a bill of supply.
    await summary.getByRole('button', { name: 'Unknown' }).click();
    await shows(summary.getByTestId('total'), '₹1,960.00');
    expect(await error.count()).toBe(0);
    await page.keyboard.press('F9');
    expect(await byId('sell-panel').getByTestId('sell-paid').inputValue()).toBe('1960');
    const invoiceNo = await confirmAndReadInvoiceNo('0004');
    expect(await text(byId('bill-document'))).toBe('Bill of Supply');
    await byId('bill-composition').filter({ hasText: 'Composition taxable person, not eligible to collect tax on supplies' }).waitFor();
    expect(await text(byId('bill-invoice-value'))).toBe('₹1,960.00');
    expect(await byId('bill-igst').count()).toBe(0);
    expect(await byId('bill-cgst').count()).toBe(0);
    expect(await byId('bill-line-cgst').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'GST %' }).count()).toBe(0);
    await e2e.shot(page, 'gst-sale-bill-of-supply');
    const pdfText = await invoicePdf(Number(page.url().split('/').pop()));
    for (const t of ['Bill of Supply', 'Composition taxable person, not eligible to collect tax on supplies', invoiceNo, '1,960.00']) expect(pdfText).toContain(t);
  }));
});

/** Waits until the input with this id holds this value (React fills some fields after a reply). */
async function valueIs(id: string, value: string) {
  await page.waitForFunction(([i, v]) => (document.getElementById(i!) as HTMLInputElement | null)?.value === v, [id, value], { timeout: 10_000 });
}
