// Issue 31, the accountant's hand-off, the rest (besides Tally): in GST mode a customer needs a
// 6-digit PIN (English and Hindi refusals), the GSTR-2B WhatsApp message edited in Setting (a
// placeholder it does not have is refused under its box; reset to default), and Purchases >
// GSTR-2B matching the suppliers' credit notes with our purchase returns and an amended bill.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEFAULT_SHARE_TEMPLATES } from '@bahi/contracts';
import { ACCOUNTS, login, managerWithCatalogue, startE2E, type E2E } from '../src/harness';

const MH_GSTIN = '27AAPFU0939F1ZV';
const GJ_GSTIN = '24AAGCS5678K1ZT';
// Demo catalogue (services/inventory seed): cp 2380.00, 18 %, HSN 4412.
const P1 = 1;

let e2e: E2E;
let page: Page;
let manager: string;
let distributor: number;

async function ok<T = unknown>(method: string, p: string, body?: unknown): Promise<T> {
  const r = await e2e.api<T>(method, p, { token: manager, body });
  if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
const today = () => new Date(Date.now() + 5.5 * 3600_000).toISOString().slice(0, 10);
const seeAlert = async (text: string) => {
  await page.getByTestId('alert').filter({ hasText: text }).first().waitFor();
  await page.waitForTimeout(300); // the alert fades in: screenshots show it settled
};
async function chooseLanguage(lng: 'en' | 'hi') {
  await page.locator('.sh-profile__button').click();
  await page.getByTestId(`language-${lng}`).click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

beforeAll(async () => {
  e2e = await startE2E({ services: ['inventory', 'ledger', 'sales'] });
  manager = await managerWithCatalogue(e2e);
  const company = await ok<Record<string, string>>('GET', '/getCompanyDetails');
  await ok('POST', '/setCompanyDetails', {
    id: company.id,
    name: company.name,
    add1: company.add1 || 'Mumbai',
    mob1: company.mob1 || '9876543210',
    email: company.email || 'demo@demo.local',
    tax_mode: 'gst',
    gstin: MH_GSTIN,
    invoice_prefix: 'GT',
  });
  distributor = (
    await ok<{ id: number }>('POST', '/addDistributor', {
      name: 'Surat Plywood House',
      address_line_1: '9 Ring Road',
      address_line_2: '',
      city_or_district: 'Surat',
      state: 'GJ',
      country: 'India',
      postal_code: '395003',
      gstin: GJ_GSTIN,
      officers: [{ name: 'Ramesh', mobile: '9825012345' }],
    })
  ).id;
  page = await e2e.newPage();
  await login(page, ACCOUNTS.manager.email, ACCOUNTS.manager.password);
}, 180_000);

afterAll(() => e2e?.stop());

test('GST mode: the customer form refuses a zip that is not a 6-digit PIN, in English and in Hindi, and saves a good one', async () => {
  await page.goto('/clientList/add-client');
  const form = page.getByTestId('add-client-form');
  await form.waitFor();
  await form.getByLabel('Mobile').fill('9820077001');
  await form.getByLabel('Name').fill('Andheri Furnishers');
  await form.getByLabel('Address line 1').fill('5 Link Road');
  await form.getByLabel('City').fill('Mumbai');
  await form.getByLabel('Zip').fill('40005');
  await form.getByLabel('Zip').press('Enter');
  await seeAlert(
    "postal_code must be a 6-digit PIN code not starting with 0 (e.g. 411001): a customer in India needs one in GST mode, for e-way bills; '40005' is not one.",
  );
  await e2e.shot(page, 'gst-pin-refused');
  expect((await ok<unknown[]>('GET', '/getCustomerList/?text=Andheri')).length).toBe(0);

  await chooseLanguage('hi');
  try {
    // The field by its id: its label is Hindi now.
    await form.locator('#add-client-form-postal_code').press('Enter');
    await seeAlert('postal_code 6 अंकों का पिन कोड होना चाहिए जो 0 से शुरू न हो (जैसे 411001)');
    await e2e.shot(page, 'gst-pin-refused-hi');
  } finally {
    await chooseLanguage('en');
  }

  await form.getByLabel('Zip').fill('400053');
  await form.getByLabel('Zip').press('Enter');
  await page.waitForURL(/\/clientList\/transaction\/\d+$/);
  expect(await ok<unknown[]>('GET', '/getCustomerList/?text=Andheri')).toEqual([
    expect.objectContaining({ name: 'Andheri Furnishers', postal_code: '400053' }),
  ]);
});

test('Setting: the GSTR-2B WhatsApp message is edited in English and Hindi; an unknown placeholder is refused under its box; Reset to default', async () => {
  await page.goto('/setting');
  const section = page.getByTestId('gstr2b-template-section');
  await section.waitFor();
  const en = section.getByLabel('Bill missing in GSTR-2B (English)');
  const hi = section.getByLabel('Bill missing in GSTR-2B (Hindi)');
  expect(await en.inputValue()).toBe(DEFAULT_SHARE_TEMPLATES.gstr2b_missing.en);
  await en.fill('Namaste {name}, bill {bill_no}: {link}');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  const error = section.getByTestId('error-gstr2b_missing.en');
  await error.waitFor();
  expect(await error.textContent()).toBe(
    'share_templates.gstr2b_missing.en has an unknown placeholder {link}; use {name} {company} {bill_no} {bill_date} {tax} {period}.',
  );
  await e2e.shot(page, 'gstr2b-template-refused');
  expect(
    (await ok<{ share_templates: { gstr2b_missing: unknown } }>('GET', '/getCompanyDetails')).share_templates
      .gstr2b_missing,
  ).toEqual(DEFAULT_SHARE_TEMPLATES.gstr2b_missing);

  const mine =
    'Namaste {name}, bill {bill_no} of {bill_date} (GST {tax}) is not in our GSTR-2B for {period}. Please file it. {company}';
  await en.fill(mine);
  await hi.fill('नमस्ते {name}, बिल {bill_no} {period} के GSTR-2B में नहीं है।');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await seeAlert('Profile Updated.');
  expect(
    (await ok<{ share_templates: { gstr2b_missing: unknown } }>('GET', '/getCompanyDetails')).share_templates
      .gstr2b_missing,
  ).toEqual({ en: mine, hi: 'नमस्ते {name}, बिल {bill_no} {period} के GSTR-2B में नहीं है।' });

  // The Hindi one back to the shipped message.
  await section.getByTestId('reset-gstr2b_missing.hi').click();
  expect(await hi.inputValue()).toBe('');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await seeAlert('Profile Updated.');
  await page.waitForFunction(
    (t) =>
      (document.querySelector('textarea[name="template-gstr2b_missing.hi"]') as HTMLTextAreaElement | null)?.value ===
      t,
    DEFAULT_SHARE_TEMPLATES.gstr2b_missing.hi,
  );
  expect(
    (await ok<{ share_templates: { gstr2b_missing: unknown } }>('GET', '/getCompanyDetails')).share_templates
      .gstr2b_missing,
  ).toEqual({ en: mine, hi: DEFAULT_SHARE_TEMPLATES.gstr2b_missing.hi });
  await section.scrollIntoViewIfNeeded();
  await e2e.shot(page, 'gstr2b-template-saved');
});

test('Purchases > GSTR-2B: credit notes matched with our purchase returns, an amended bill matched by its first number, the message from Setting', async () => {
  // Three sheets bought from Gujarat on three bills: each taxable 2380.00, IGST 18 % = 428.40.
  const buy = async (bill_no: string) => {
    await ok('GET', `/addProductIntoCart/${encodeURIComponent(`1*${P1}`)}?cart_no=1`);
    return (
      await ok<{ purchaseId: number }[]>('POST', '/checkOutPurchase', {
        bill_no,
        bill_date: today(),
        distributor,
        officer: '',
        paid: '0',
        due_date: today(),
        cart_no: 1,
      })
    )[0]!.purchaseId;
  };
  const giveBack = async (purchaseId: number, k: string) => {
    const sl = (await ok<{ lines: { sl_no: number }[] }>('GET', `/getPurchaseDetails?purchaseId=${purchaseId}`))
      .lines[0]!.sl_no;
    return (
      await ok<{ debitNoteId: number; debit_note_no: string }>('POST', '/purchaseReturn', {
        purchaseId,
        lines: [{ sl_no: sl, quantity: 1 }],
        refund: 0,
        idempotencyKey: k,
        reason: 'Damaged',
      })
    ).debit_note_no;
  };
  const p70 = await buy('SPH/0070');
  const p71 = await buy('SPH/0071');
  await buy('SPH/0072');
  // The sheet of SPH/0070 back: debit note taxable 2380.00, IGST 428.40; the supplier's credit note reports it.
  const dn1 = await giveBack(p70, 'e2e-dn-70');
  // The sheet of SPH/0071 back: no credit note from the supplier yet.
  const dn2 = await giveBack(p71, 'e2e-dn-71');
  const [y, m, d] = today().split('-');
  const dt = `${d}-${m}-${y}`;
  const item = (txval: number, igst: number) => ({ num: 1, rt: 18, txval, igst, cgst: 0, sgst: 0, cess: 0 });
  const twoB = {
    data: {
      gstin: MH_GSTIN,
      rtnprd: `${m}${y}`,
      docdata: {
        b2b: [
          {
            ctin: GJ_GSTIN,
            trdnm: 'SURAT PLYWOOD HOUSE',
            inv: [{ inum: 'SPH-70', dt, val: 2808.4, itcavl: 'Y', items: [item(2380, 428.4)] }],
          },
        ],
        // SPH/0071 amended to a new number: matched by the number first reported.
        b2ba: [
          {
            ctin: GJ_GSTIN,
            trdnm: 'SURAT PLYWOOD HOUSE',
            inv: [
              {
                oinum: 'SPH/0071',
                oidt: dt,
                inum: 'SPH/0071-R',
                dt,
                val: 2808.4,
                itcavl: 'Y',
                items: [item(2380, 428.4)],
              },
            ],
          },
        ],
        cdnr: [
          {
            ctin: GJ_GSTIN,
            trdnm: 'SURAT PLYWOOD HOUSE',
            nt: [
              // Our debit note's number as the supplier wrote it (lower case, no leading zeros), IGST 428.80: within Rs 1.
              {
                ntnum: dn1.toLowerCase().replace(/\/0+/, '/'),
                typ: 'C',
                dt,
                val: 2808.8,
                itcavl: 'Y',
                items: [item(2380, 428.8)],
              },
              // A debit note from the supplier (freight charged later): nothing in our books.
              { ntnum: 'SPH-DN-3', typ: 'D', dt, val: 118, itcavl: 'Y', items: [item(100, 18)] },
            ],
          },
        ],
      },
    },
  };
  const file = path.join(os.tmpdir(), `gstr2b-notes-${m}${y}.json`);
  fs.writeFileSync(file, JSON.stringify(twoB));

  await page.goto('/purchaseList');
  await page.getByTestId('open-gstr2b').click();
  await page.getByTestId('gstr2b-period').fill(`${y}-${m}`);
  await page.getByTestId('gstr2b-file').setInputFiles(file);
  await seeAlert('GSTR-2B read and matched.');

  const matched = page.getByTestId('gstr2b-matched');
  expect(await matched.locator('tbody tr').count()).toBe(2);
  expect(await matched.locator('tbody tr').nth(1).locator('td').allTextContents()).toEqual([
    'Surat Plywood House',
    GJ_GSTIN,
    'SPH/0071In GSTR-2B amended as SPH/0071-R',
    today(),
    '₹2,380.00',
    '₹428.40',
  ]);
  const notes = page.getByTestId('gstr2b-notes');
  const row = (status: string) => notes.locator(`tbody tr[data-status="${status}"]`);
  expect(await row('matched').locator('td').allTextContents()).toEqual([
    'Matched',
    'Surat Plywood House',
    `${dn1}In GSTR-2B as ${dn1.toLowerCase().replace(/\/0+/, '/')}`,
    'Our debit note on bill SPH/0070',
    today(),
    '₹2,380.00',
    '₹428.40',
  ]);
  expect(await row('missingInBooks').locator('td').allTextContents()).toEqual([
    'In GSTR-2B, not in our returns',
    'SURAT PLYWOOD HOUSE',
    'SPH-DN-3',
    "Supplier's debit note",
    today(),
    '₹100.00',
    '₹18.00',
  ]);
  expect(await row('missingIn2b').locator('td').allTextContents()).toEqual([
    'Our return, missing in GSTR-2B',
    'Surat Plywood House',
    dn2,
    'Our debit note on bill SPH/0071',
    today(),
    '₹2,380.00',
    '₹428.40',
  ]);
  await notes.scrollIntoViewIfNeeded();
  await e2e.shot(page, 'gstr2b-notes');

  // The bill missing in 2B: the WhatsApp message is the one saved in Setting.
  await page
    .context()
    .route('https://wa.me/**', (r) => r.fulfill({ status: 200, contentType: 'text/plain', body: 'WhatsApp' }));
  const missing = page.getByTestId('gstr2b-missing-2b');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    missing.getByRole('button', { name: 'Ask on WhatsApp' }).click(),
  ]);
  const url = decodeURIComponent(popup.url());
  expect(url).toContain('https://wa.me/919825012345');
  expect(url).toContain(
    `Namaste Surat Plywood House, bill SPH/0072 of ${today()} (GST ₹428.40) is not in our GSTR-2B for ${y}-${m}. Please file it.`,
  );
  await popup.close();

  // In Hindi: the notes card's words.
  await chooseLanguage('hi');
  try {
    await notes
      .locator('tbody tr[data-status="missingInBooks"] td')
      .first()
      .filter({ hasText: 'GSTR-2B में, हमारी वापसी में नहीं' })
      .waitFor();
    expect(await row('missingIn2b').locator('td').nth(3).textContent()).toBe('बिल SPH/0071 पर हमारा डेबिट नोट');
    await e2e.shot(page, 'gstr2b-notes-hi');
  } finally {
    await chooseLanguage('en');
  }
});
