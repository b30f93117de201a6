import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources } from '../src/documents/kinds';
import { renderPdf, toHtml } from '../src/documents/renderer';
import { COMPOSITION_LINE } from '../src/templates/tax-invoice';
import * as F from './fixtures';
import * as G from './gst-fixtures';
import { decodeQr, pageSizesMm, pdfText, rasterPage } from './pdf';

// The A4 tax invoice / bill of supply through the real Chromium, from SaleGst fixtures computed
// by @bahi/gst (gst-fixtures.ts), read back with pdftotext.
const sources: DocumentSources = {
  async ask(_subject, payload) {
    return (G.GST_SALES[(payload as { saleId: number }).saleId] ?? null) as never;
  },
  company: async () => F.company,
  today: () => '2026-05-31',
};

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 10, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

async function bill(saleId: number, src = sources) {
  const doc = await DOCUMENT_KINDS.bill.prepare({ companyId: F.COMPANY_ID, id: String(saleId), query: {} }, src);
  const pdf = await renderPdf(pool, doc);
  if (process.env.DOCS_DUMP) writeFileSync(join(process.env.DOCS_DUMP, `tax-invoice-${saleId}.pdf`), pdf);
  const raw = pdfText(pdf);
  return { doc, pdf, html: toHtml(doc), raw, text: squash(raw) };
}

const squash = (s: string) => s.replace(/\s+/g, ' ');

/** Totals rows printed beside other blocks: each row whole, in this order (pdftotext interleaves columns). */
function totals(text: string, rows: string[]) {
  let from = 0;
  for (const r of rows) {
    const at = text.indexOf(r, from);
    expect({ row: r, found: at >= 0 }).toEqual({ row: r, found: true });
    from = at + r.length;
  }
}

/** CGST Rule 46 (a) supplier, (b) number (per test), (c) date, (g) HSN, (p) reverse charge, (q) signatory: on every tax invoice, whoever the buyer is. */
const RULE_46 = [
  'Tax Invoice',
  'Sharma Kirana Stores',
  '12 MG Road, Andheri East, Mumbai 400069',
  'GSTIN: 27AAPFU0939F1ZV',
  'State: Maharashtra (27)',
  'Invoice date: 14-05-2026',
  'HSN',
  'Tax payable on reverse charge: No',
  'For Sharma Kirana Stores',
  'Authorised Signatory',
  'HSN-wise summary',
];

describe('tax invoice (gst mode)', () => {
  it('inter-state to a registered buyer: the worked example on one A4 page, IGST only, every Rule 46 field', async () => {
    const { pdf, text, doc } = await bill(20);
    expect(doc.fileName).toBe('bill-20.pdf');
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    for (const s of RULE_46) expect(text).toContain(s);
    for (const s of ['Invoice No: GT/26-27/0001', 'BILL TO (REGISTERED)', 'Patel Electricals', '45 Relief Road, Ahmedabad 380001', 'GSTIN: 24AAGCS5678K1ZT', 'State: Gujarat (24)', 'Place of supply: Gujarat (24)']) {
      expect(text).toContain(s);
    }
    // Lines: S.No, description, HSN, qty and unit, rate (* includes GST), disc, taxable value, GST %, IGST % (the head's rate), IGST
    expect(text).toContain('1 Steam Iron 1200W 8516 3.0 pcs 590.00* 0.00 1,500.00 18 18% 270.00');
    expect(text).toContain('2 Plastic Storage Box 3924 2.0 pcs 100.00 5.00 190.00 12 12% 22.80');
    expect(text).toContain('Total 1,690.00 292.80');
    expect(text).toMatch(/GST % IGST % IGST/);
    expect(text).not.toMatch(/CGST|SGST|UTGST/);
    // Totals per tax head, round off, invoice value, in words
    totals(text, ['Taxable value 1,690.00', 'IGST 292.80', 'Round off +0.20', 'Invoice value ₹1,983.00']);
    expect(text).toContain('Rupees One Thousand Nine Hundred Eighty Three Only');
    // HSN summary: 3924 before 8516, totals equal the invoice's
    expect(text).toContain('3924 2.0 PCS 190.00 12% 22.80 22.80');
    expect(text).toContain('8516 3.0 PCS 1,500.00 18% 270.00 270.00');
    expect(text).toContain('Total 1,690.00 292.80 292.80');
    // The previous due and payment stay below the invoice: 1983.00 + 500.50 - 1000 = 1483.50 -> 1,484
    totals(text, ['This invoice ₹1,983.00', 'Previous due ₹500.50', 'Paid (Cash) ₹1,000.00', 'Balance due ₹1,484']);
    expect(text).toContain('Invoice GT/26-27/0001 · Page 1 of 1');
  });

  it('carries a UPI QR of the rounded due', async () => {
    const { pdf } = await bill(20);
    const qr = decodeQr(rasterPage(pdf, 1, 200)); // the page's only QR code
    expect(qr).toBe('upi://pay?pa=sharmakirana%40upi&pn=Sharma%20Kirana%20Stores&am=1484.00&cu=INR&tn=Invoice%20GT%2F26-27%2F0001');
  });

  it('intra-state to the walk-in customer: CGST and SGST columns, no GSTIN and no previous due for the buyer', async () => {
    const { text, html } = await bill(21);
    for (const s of RULE_46) expect(text).toContain(s);
    expect(text).toContain('Invoice No: GT/26-27/0002');
    expect(text).toContain('Place of supply: Maharashtra (27)');
    expect(text).toContain('Walk-in customer');
    expect(text).not.toContain('(REGISTERED)');
    expect(text.match(/GSTIN:/g)).toHaveLength(1); // the supplier's only
    expect(text).toMatch(/GST % CGST % CGST SGST % SGST/);
    expect(text).not.toContain('IGST');
    // the issue: CGST 135.00 + 11.40, SGST the same; each head's rate beside it (18 % = CGST 9 % + SGST 9 %)
    expect(text).toContain('1 Steam Iron 1200W 8516 3.0 pcs 590.00* 0.00 1,500.00 18 9% 135.00 9% 135.00');
    expect(text).toContain('2 Plastic Storage Box 3924 2.0 pcs 100.00 5.00 190.00 12 6% 11.40 6% 11.40');
    totals(text, ['Taxable value 1,690.00', 'CGST 146.40', 'SGST 146.40', 'Round off +0.20', 'Invoice value ₹1,983.00']);
    expect(text).toContain('3924 2.0 PCS 190.00 6% 11.40 6% 11.40 22.80');
    expect(text).toContain('8516 3.0 PCS 1,500.00 9% 135.00 9% 135.00 270.00');
    expect(text).toContain('Total 1,690.00 146.40 146.40 292.80');
    expect(text).not.toContain('Previous due');
    // nothing paid: the whole invoice is due
    expect(text).toContain('Balance due ₹1,983');
    expect(html).toContain('am=1983.00');
  });

  it('intra-state to a registered buyer with shipping and a summary discount spread over the lines (round off at exactly .50 goes up)', async () => {
    const { text } = await bill(22);
    for (const s of RULE_46) expect(text).toContain(s);
    expect(text).toContain('GSTIN: 27AAACB1234C1ZF');
    expect(text).toContain('Place of supply: Maharashtra (27)');
    // net 40.00 - 21.50 = 18.50: 1500/1690 x 18.50 = 16.42, 190/1690 x 18.50 = 2.08
    // CGST = SGST: 1516.42 x 9 % = 136.4778 -> 136.48; 192.08 x 6 % = 11.5248 -> 11.52
    expect(text).toContain('1,516.42 18 9% 136.48 9% 136.48');
    expect(text).toContain('192.08 12 6% 11.52 6% 11.52');
    // 1708.50 + 148.00 + 148.00 = 2004.50 -> 2005 (CGST Act s.170: fifty paise or more goes up)
    totals(text, ['Taxable value 1,708.50', 'CGST 148.00', 'SGST 148.00', 'Round off +0.50', 'Invoice value ₹2,005.00']);
    expect(text).toContain('Rupees Two Thousand Five Only');
    expect(text).toContain('shipping ₹40.00 less discount ₹21.50 included in');
    expect(text).toContain('the taxable values above, spread over the');
  });

  it('inter-state to an unregistered buyer: place of supply from the recorded state', async () => {
    const { text } = await bill(23);
    expect(text).toContain('Place of supply: Karnataka (29)');
    expect(text).toContain('State: Karnataka (29)');
    expect(text).toContain('Lakshmi Stores');
    expect(text.match(/GSTIN:/g)).toHaveLength(1);
    totals(text, ['Taxable value 1,690.00', 'IGST 292.80', 'Round off +0.20', 'Invoice value ₹1,983.00']);
  });

  it('prints UTGST for a union territory without a legislature', async () => {
    const { text } = await bill(25);
    expect(text).toContain('State: Chandigarh (04)');
    expect(text).toContain('Place of supply: Chandigarh (04)');
    expect(text).toMatch(/GST % CGST % CGST UTGST % UTGST/);
    totals(text, ['CGST 146.40', 'UTGST 146.40']);
    expect(text).not.toMatch(/\bSGST/);
  });
});

describe('bill of supply (composition mode)', () => {
  it('has the composition line, no tax columns or tax totals, and the amounts as they stand', async () => {
    const { pdf, text } = await bill(24);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 297 }]);
    expect(text).toContain('Bill of Supply');
    expect(text).not.toContain('Tax Invoice');
    expect(text).toContain(COMPOSITION_LINE);
    for (const s of ['Invoice No: CS/26-27/0001', 'GSTIN: 27AAPFU0939F1ZV', 'Place of supply: Maharashtra (27)', 'Tax payable on reverse charge: No', 'Authorised Signatory']) {
      expect(text).toContain(s);
    }
    expect(text).not.toMatch(/GST %|CGST|SGST|IGST|Taxable value/);
    // 2 bags x (650 - 25) = 1,250.00; 2 boxes x 6 pcs x 10.00 = 120.00
    expect(text).toContain('1 Basmati Rice 5kg 1006 2.0 bag 650.00 25.00 1,250.00');
    expect(text).toMatch(/2 Biscuit Box 1905 12\.0 pcs 10\.00 0\.00 120\.00/);
    totals(text, ['Total value 1,370.00', 'Round off 0.00', 'Invoice value ₹1,370.00']);
    expect(text).toContain('Rupees One Thousand Three Hundred Seventy Only');
    expect(text).toContain('1006 2.0 BAG 1,250.00');
    expect(text).toContain('1905 12.0 PCS 120.00');
  });
});

describe('nil-rated, exempt and non-GST lines (GSTR-1 Table 8; CGST Rule 49)', () => {
  it('a mixed bill stays a Tax Invoice: each non-taxable line marked, at rate 0 with no heads; totals hand-computed', async () => {
    const { text } = await bill(27);
    for (const s of RULE_46) expect(text).toContain(s);
    expect(text).not.toContain('Bill of Supply');
    expect(text).toContain('Invoice No: GT/26-27/0005');
    // 590.00 incl. 18 % -> 500.00 taxable, CGST 45.00 + SGST 45.00; milk 4 x 30 = 120.00, salt 2 x 25 = 50.00, petrol 100.00: no tax
    expect(text).toContain('1 Steam Iron 1200W 8516 1.0 pcs 590.00* 0.00 500.00 18 9% 45.00 9% 45.00');
    expect(text).toMatch(/2 Fresh Milk 1L \(Exempt\) 0401 4\.0 pcs 30\.00 0\.00 120\.00 0 3 /);
    expect(text).toMatch(/3 Iodised Salt 1kg \(Nil rated\) 2501 2\.0 pcs 25\.00 0\.00 50\.00 0 4 /);
    expect(text).toMatch(/4 Petrol 1L \(Non-GST\) 2710 1\.0 pcs 100\.00 0\.00 100\.00 0 Total /);
    expect(text).toContain('Total 770.00 45.00 45.00');
    totals(text, ['Taxable value 770.00', 'CGST 45.00', 'SGST 45.00', 'Round off 0.00', 'Invoice value ₹860.00']);
    expect(text).toContain('Rupees Eight Hundred Sixty Only');
    // the HSN summary carries the rate-0 lines at 0 %
    expect(text).toContain('0401 4.0 PCS 120.00 0% 0.00 0% 0.00 0.00');
    expect(text).toContain('8516 1.0 PCS 500.00 9% 45.00 9% 45.00 90.00');
    expect(text).not.toContain(COMPOSITION_LINE);
  });

  it('a bill of only exempt / nil-rated lines prints as a Bill of Supply with the same invoice number, no tax heads, not the composition line', async () => {
    const { text } = await bill(28);
    expect(text).toContain('Bill of Supply');
    expect(text).not.toContain('Tax Invoice');
    expect(text).toContain('Invoice No: GT/26-27/0006');
    expect(text).toContain('Exempt, nil-rated or non-GST supply: no GST is charged on this bill (CGST Rule 49)');
    expect(text).not.toContain(COMPOSITION_LINE);
    for (const s of ['GSTIN: 27AAPFU0939F1ZV', 'Invoice date: 14-05-2026', 'Authorised Signatory', 'HSN-wise summary']) expect(text).toContain(s);
    expect(text).not.toMatch(/GST %|CGST(?! Rule)|SGST|IGST|Taxable value/);
    expect(text).toContain('1 Fresh Milk 1L (Exempt) 0401 4.0 pcs 30.00 0.00 120.00');
    expect(text).toContain('2 Iodised Salt 1kg (Nil rated) 2501 2.0 pcs 25.00 0.00 50.00');
    // 120.00 + 50.00
    totals(text, ['Total value 170.00', 'Round off 0.00', 'Invoice value ₹170.00']);
    expect(text).toContain('Rupees One Hundred Seventy Only');
    expect(text).toContain('This is a computer-generated bill of supply.');
  });
});

describe('long invoices', () => {
  it('60 lines paginate on A4 with the table header, invoice number and page count on every page', async () => {
    const { pdf, raw, text } = await bill(26);
    const sizes = await pageSizesMm(pdf);
    expect(sizes.length).toBeGreaterThanOrEqual(2);
    expect(sizes.every((s) => s.w === 210 && s.h === 297)).toBe(true);
    const pages = raw.split('\f').filter((p) => p.trim());
    expect(pages).toHaveLength(sizes.length);
    pages.forEach((p, i) => {
      const t = squash(p);
      expect(t).toContain('Description of goods');
      expect(t).toContain(`Invoice GT/26-27/0099 · Page ${i + 1} of ${sizes.length}`);
    });
    for (let i = 1; i <= 60; i++) expect(text).toContain(`Item ${i} of a long invoice`);
    const last = squash(pages[pages.length - 1]!);
    expect(last).toContain('Invoice value');
    expect(last).toContain('Authorised Signatory');
    // the HSN summary adds up to the invoice: its total row repeats the invoice's taxable and IGST totals
    const g = G.longGst.gst!;
    const fmt = (v: string) => Number(v).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(last).toContain(`Total ${fmt(g.taxable_total)} ${fmt(g.igst_total)} ${fmt(g.tax_total)}`);
  });
});

describe('simple mode is unchanged', () => {
  it('a sale without gst still prints the A5 bill', async () => {
    const src: DocumentSources = { ...sources, ask: (async () => F.sale) as DocumentSources['ask'] };
    const { pdf, text } = await bill(7, src);
    expect(await pageSizesMm(pdf)).toEqual([{ w: 210, h: 148 }]);
    expect(text).toContain('TAX INVOICE');
    expect(text).toContain('Total ₹2,561.92');
    expect(text).not.toContain('Place of supply');
  });
});

describe('e-way bill on the tax invoice (issue 31)', () => {
  it('prints the recorded number and validity in the invoice block', async () => {
    const withEwb = { ...G.interB2b, ewaybill: { ewb_no: '331000123456', valid_until: '2030-01-03T18:29:00.000Z' } };
    const src: DocumentSources = { ...sources, ask: async () => withEwb as never };
    const { text } = await bill(20, src);
    expect(text).toContain('E-way bill No. 331000123456, valid until 03/01/2030, 23:59');
    expect((await bill(20)).text).not.toContain('E-way bill');
  });
});
