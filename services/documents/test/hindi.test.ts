import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import type { DocumentKind, ReorderDocument, SaleDocument } from '@bahi/contracts';
import { BrowserPool } from '../src/render/browser-pool';
import { DOCUMENT_KINDS, type DocumentSources, type Query } from '../src/documents/kinds';
import { renderPdf } from '../src/documents/renderer';
import type { CompanyView } from '../src/templates/model';
import { COMPOSITION_LINE } from '../src/templates/tax-invoice';
import en from '../src/locales/en.json';
import hi from '../src/locales/hi.json';
import * as F from './fixtures';
import * as G from './gst-fixtures';
import * as N from './note-fixtures';
import { binary, startDocuments, tokenFor, type DocStack } from './helpers';
import { pdfFonts, pdfText } from './pdf';
import { asked, state } from './responders';

// Every document kind printed in Hindi through the real Chromium, read back with poppler: the
// labels come out as Devanagari text (pdftotext), from an embedded Noto Sans Devanagari (pdffonts),
// product and party names as stored, amounts in words in Hindi; ?lang= over HTTP.

/** A bill whose customer and first product have Devanagari names (printed as stored); figures as bill 7. */
const hindiNames: SaleDocument = {
  ...F.sale,
  sale_id: 11,
  customer: { ...F.customer, name: 'रमेश गुप्ता' },
  soldProducts: [{ ...F.sale.soldProducts[0]!, product_name: 'बासमती चावल 5kg' }, F.sale.soldProducts[1]!],
};
const SALES: Record<number, SaleDocument> = { 7: F.sale, 8: F.walkInSale, 11: hindiNames, ...G.GST_SALES };
const REORDER: ReorderDocument = {
  distributorId: 5,
  distributorName: 'Gupta Wholesale',
  date: '2025-03-31',
  lines: [12, 13].map((id) => ({
    product_id: id, product_name: id === 12 ? 'Basmati Rice 5kg' : 'Mustard Oil', brand_name: 'Acme', unit: 'bag', per_peice_quantity: '1', stock: '3', min_stock: '5',
    default_stock: '12', cp: '80.00', last_cp: '78.50', last_purchase_date: '2025-03-01', last_purchase_id: 4, suggested_quantity: '9', suggested_units: '9',
  })),
};

const sources = (company: CompanyView): DocumentSources => ({
  async ask(subject, payload) {
    const p = payload as Record<string, number>;
    const data: Record<string, unknown> = {
      'sales.sale.document': SALES[p.saleId!] ?? null,
      'sales.estimate.document': F.estimate,
      'ledger.receipt.document': F.receipt,
      'ledger.customer.statement': F.statement(40),
      'inventory.stockbook.rows': F.stockBook,
      'inventory.label.details': F.labelDetails(p.productId ?? 12),
      'inventory.purchase.labels': F.purchaseLabels,
      'sales.creditnote.document': N.CREDIT_NOTES[p.creditNoteId!] ?? null,
      'inventory.debitnote.document': N.DEBIT_NOTES[p.debitNoteId!] ?? null,
      'inventory.reorder.document': REORDER,
    };
    return data[subject] as never;
  },
  company: async () => company,
  today: () => '2025-03-31',
});
const HINDI_CO: CompanyView = { ...F.company, docLanguage: 'hi' };
const ENGLISH_CO: CompanyView = { ...F.company, docLanguage: 'en' };

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', concurrency: 2, queueLimit: 20, renderTimeoutMs: 30_000, restartAfter: 1000 });
});
afterAll(() => pool.close());

async function render(kind: DocumentKind, id: string | undefined, query: Query = {}, company = HINDI_CO) {
  const doc = await DOCUMENT_KINDS[kind].prepare({ companyId: F.COMPANY_ID, id, query }, sources(company));
  return { doc, pdf: await renderPdf(pool, doc) };
}

/**
 * pdftotext puts a space inside some Devanagari clusters (a vowel sign drawn apart from its
 * consonant), so text is compared without any whitespace, after Unicode NFC on both sides.
 */
const compact = (s: string) => s.normalize('NFC').replace(/\s+/g, '');

function expectHindi(pdf: Buffer, texts: string[], notEnglish: string[] = []) {
  const text = compact(pdfText(pdf));
  for (const s of texts) expect(text).toContain(compact(s));
  for (const s of notEnglish) expect(text).not.toContain(compact(s));
  // The Devanagari comes from an embedded Noto Sans Devanagari subset (no missing glyphs drawn as boxes).
  expect(pdfFonts(pdf)).toMatch(/NotoSansDevanagari-(Regular|Bold)\s+CID TrueType\s+Identity-H\s+yes yes yes/);
}

describe('the catalogues', () => {
  const keys = (o: object, at = ''): string[] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === 'object' && v ? keys(v as object, `${at}${k}.`) : [`${at}${k}`]));

  it('hold the same keys in English and Hindi, every Hindi label non-empty', () => {
    expect(keys(hi).sort()).toEqual(keys(en).sort());
    // the rule's wording in English is the one the English bill of supply always printed
    expect(en.gst.compositionLine).toBe(COMPOSITION_LINE);
    for (const k of keys(hi)) expect(k.split('.').reduce((o: any, p) => o[p], hi)).not.toBe('');
  });

  it('hold every label the templates print', () => {
    const dir = resolve(__dirname, '../src');
    const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : /\.tsx?$/.test(e.name) ? [join(d, e.name)] : []));
    const used = new Set<string>();
    for (const f of files(dir)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\bt\('([a-zA-Z]+\.[a-zA-Z.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    const known = new Set(keys(en));
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
  });
});

describe('every kind in Hindi (the company prints in Hindi)', () => {
  it('A5 bill: Hindi labels, names as stored, every figure', async () => {
    const { pdf } = await render('bill', '11');
    // figures as bill 7: total 1731.50 + 500.25 + 40 + 311.67 - 21.50 = 2561.92; due 2561.92 - 1000 = 1561.92 -> ₹1,562
    expectHindi(
      pdf,
      ['कर बीजक', 'बिल नं.: 11', 'दिनांक: 14-03-2025', 'बिल प्राप्तकर्ता', 'रमेश गुप्ता', 'बासमती चावल 5kg', 'Toor Dal 1kg', 'मो.: 9123456780', 'वस्तु', 'मात्रा', 'दर', 'छूट', 'राशि',
        'उप-योग ₹1,731.50', 'कर ₹311.67', 'भाड़ा ₹40.00', 'पिछला बकाया ₹500.25', 'कुल ₹2,561.92', 'भुगतान (नकद) ₹1,000.00', 'बकाया ₹1,562', 'देय तिथि: 14-04-2025', 'UPI से भुगतान करें', 'कृते Sharma Kirana Stores'],
      ['TAX INVOICE', 'Subtotal', 'Bill No', 'Previous due'],
    );
  });

  it('A4 tax invoice: Hindi labels and the invoice value in Hindi words', async () => {
    const { pdf } = await render('bill', '20');
    // invoice value ₹1,983.00 = एक हज़ार (1000) नौ सौ (900) तिरासी (83)
    expectHindi(pdf, ['कर बीजक', 'प्राप्तकर्ता हेतु मूल प्रति', 'बिल प्राप्तकर्ता (पंजीकृत)', 'Patel Electricals', 'बीजक नं.: GT/26-27/0001', 'आपूर्ति का स्थान: Gujarat (24)', 'माल का विवरण', 'कर योग्य मूल्य',
      'पूर्णांकन +0.20', 'बीजक मूल्य ₹1,983.00', 'बीजक मूल्य शब्दों में:', 'एक हज़ार नौ सौ तिरासी रुपये मात्र', 'HSN-वार सारांश', 'अधिकृत हस्ताक्षरकर्ता', 'बीजक GT/26-27/0001 · पृष्ठ 1 / 1'], ['Rupees', 'Tax Invoice', 'Invoice value']);
  });

  it('bill of supply (composition) on A4', async () => {
    const { pdf } = await render('bill', String(G.composition.sale_id));
    expectHindi(pdf, ['आपूर्ति का बिल', 'कंपोज़िशन करदाता, आपूर्ति पर कर वसूलने का पात्र नहीं'], ['Bill of Supply']);
  });

  it('80 mm receipt', async () => {
    const { pdf } = await render('bill', '11', { format: 'thermal-80' });
    expectHindi(pdf, ['वस्तु / मात्रा × दर', 'बासमती चावल 5kg', 'MRP 650.00 घटा 25.00', 'बकाया ₹1,562', 'धन्यवाद! फिर पधारें।'], ['Thank you']);
  });

  it('estimate, challan, money receipt', async () => {
    // estimate: 'अनुमान पत्र'; its figures are the estimate fixture's
    expectHindi((await render('estimate', '3')).pdf, ['अनुमान पत्र', 'अनुमान नं.: 3', 'अनुमान हेतु', 'यह अनुमान है, बिल नहीं। मूल्य बदल सकते हैं।'], ['ESTIMATE']);
    expectHindi((await render('challan', '7')).pdf, ['डिलीवरी चालान', 'माल प्राप्तकर्ता', 'प्रेषण', 'ट्रांसपोर्टर: Speedy Logistics', 'माध्यम: ROAD · वाहन: WB02AB1234', 'माल अच्छी हालत में प्राप्त हुआ।', 'प्राप्तकर्ता के हस्ताक्षर'], ['DELIVERY CHALLAN']);
    // receipt 41: ₹750.00 received; due 1561.92 - 750 = 811.92
    expectHindi((await render('receipt', '41')).pdf, ['भुगतान रसीद', 'रसीद नं.: 41', 'प्राप्त राशि', '₹750.00', 'ग्राहक', `${F.receipt.name} (आईडी 5)`, 'भुगतान प्राप्त · लेन-देन TXN-99', 'भुगतान के बाद बकाया ₹811.92', 'अगली देय तिथि 20-04-2025'], ['MONEY RECEIPT']);
  });

  it('statement (two pages of 27 rows for 40 entries)', async () => {
    const { pdf } = await render('statement', '5');
    expectHindi(pdf, ['खाता विवरण', 'मुद्रण तिथि 31-03-2025', 'कुल बकाया:', 'दिनांक', 'विवरण', 'संदर्भ', 'शेष', 'देय तिथि', 'पृष्ठ 1 / 2', 'पृष्ठ 2 / 2'], ['STATEMENT OF ACCOUNT', 'Page 1 of 2']);
  });

  it('stock book, product labels, purchase labels', async () => {
    expectHindi((await render('stockbook', undefined, { category: '4', cost: '1' })).pdf, ['स्टॉक बही', 'श्रेणी: Grains', '3 प्रोडक्ट', 'आईडी', 'प्रोडक्ट', 'ब्रांड', 'स्टॉक', 'लागत', 'India Gate'], ['STOCK BOOK']);
    expectHindi((await render('labels', '12', { qty: '2' })).pdf, ['MRP ₹650.00 · मात्रा 2 bag']);
    expectHindi((await render('purchase-labels', '9')).pdf, ['आईडी 12', 'आईडी 13']);
  });

  it('credit and debit notes in both modes, values in Hindi words', async () => {
    // credit note 31: 745 - 10 = 735.00 = सात सौ (700) पैंतीस (35)
    expectHindi((await render('credit-note', '31')).pdf, ['क्रेडिट नोट', 'नं.: CN/26-27/0007', 'मूल दस्तावेज़', 'लौटाई गई वस्तु', 'क्रेडिट नोट मूल्य ₹735.00', 'नकद वापस किया ₹100.00', 'ग्राहक के बकाया में से घटाया ₹635.00', 'शब्दों में: सात सौ पैंतीस रुपये मात्र'], ['CREDIT NOTE', 'Rupees']);
    // GST credit note 32: 696.40 = छह सौ (600) छियानवे (96) रुपये और चालीस (40) पैसे
    expectHindi((await render('credit-note', '32')).pdf, ['क्रेडिट नोट मूल्य शब्दों में:', 'छह सौ छियानवे रुपये और चालीस पैसे मात्र', 'मूल बीजक नं.', 'अधिकृत हस्ताक्षरकर्ता'], ['Rupees']);
    // GST debit note 51: 2607.00 = दो हज़ार (2000) छह सौ (600) सात (7)
    expectHindi((await render('debit-note', '51')).pdf, ['डेबिट नोट', 'दो हज़ार छह सौ सात रुपये मात्र', 'डिस्ट्रीब्यूटर से वापस प्राप्त ₹1,000.00', 'खरीद नं.'], ['Rupees']);
    expectHindi((await render('debit-note', '52')).pdf, ['डेबिट नोट', 'डिस्ट्रीब्यूटर का बिल नं.'], ['DEBIT NOTE']);
  });

  it('reorder list', async () => {
    // 9 + 9 = 18 packs ordered
    expectHindi((await render('reorder', '5')).pdf, ['क्रय आदेश', 'प्रति: Gupta Wholesale', '2 प्रोडक्ट', 'ऑर्डर मात्रा', 'कुल: 2 प्रोडक्ट 18'], ['PURCHASE ORDER']);
  });

  it('?lang=en prints a Hindi company\'s bill in English, ?lang=hi an English company\'s in Hindi', async () => {
    const english = compact(pdfText((await render('bill', '7', { lang: 'en' })).pdf));
    for (const s of ['TAX INVOICE', 'Bill No: 7', 'Subtotal ₹1,731.50', 'Due ₹1,562', 'For Sharma Kirana Stores']) expect(english).toContain(compact(s));
    expect(english).not.toContain(compact('कर बीजक'));
    expectHindi((await render('bill', '7', { lang: 'hi' }, ENGLISH_CO)).pdf, ['कर बीजक', 'बिल नं.: 7']);
    await expect(render('bill', '7', { lang: 'fr' })).rejects.toThrow('lang must be one of en, hi.');
  });
});

const PT_PER_MM = 72 / 25.4;

/** Every word's box (pdftotext -bbox), in points. */
function words(pdf: Buffer): { xMin: number; xMax: number; text: string; pageW: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'bahi-hi-'));
  try {
    writeFileSync(join(dir, 'a.pdf'), pdf);
    const html = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', join(dir, 'a.pdf'), '-'], { encoding: 'utf8' });
    const pageW = Number(/<page width="([\d.]+)"/.exec(html)![1]);
    return [...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ xMin: Number(m[1]), xMax: Number(m[2]), text: m[3]!, pageW }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('58 mm receipt in Hindi', () => {
  it('is 58 mm wide, one page, and every word lies inside the 48 mm printable width (nothing clipped)', async () => {
    for (const id of ['11', '20']) {
      const { pdf } = await render('bill', id, { format: 'thermal-58' });
      const ws = words(pdf);
      // 58 mm = 164.41 pt exactly (the MediaBox is rewritten to the roll's width)
      expect(ws[0]!.pageW).toBeCloseTo(58 * PT_PER_MM, 1);
      expect(pdfText(pdf).split('\f').filter((p) => p.trim()).length).toBe(1);
      // printable 48 mm centred: 5 mm each side = 14.17 pt; 0.5 pt for the rounding of glyph boxes
      const left = 5 * PT_PER_MM - 0.5;
      const right = 53 * PT_PER_MM + 0.5;
      const outside = ws.filter((w) => w.xMin < left || w.xMax > right);
      expect(outside).toEqual([]);
      expect(ws.length).toBeGreaterThan(40);
    }
    const { pdf } = await render('bill', '11', { format: 'thermal-58' });
    expectHindi(pdf, ['कर बीजक', 'बिल नं.: 11', 'रमेश गुप्ता', 'बासमती चावल 5kg', 'वस्तु / मात्रा × दर', 'उप-योग ₹1,731.50', 'कुल ₹2,561.92', 'बकाया ₹1,562', 'धन्यवाद! फिर पधारें।', 'कृते Sharma Kirana Stores']);
    const gst = await render('bill', '20', { format: 'thermal-58' });
    expectHindi(gst.pdf, ['बीजक नं.:', 'आपूर्ति का स्थान:', 'कर योग्य', 'बीजक मूल्य ₹1,983.00', 'शेष बकाया', 'रिवर्स चार्ज पर देय कर: नहीं']);
  });
});

describe('screenshots of the Hindi documents', () => {
  const out = resolve(__dirname, '../../../e2e/test-results/screenshots');
  it('writes the A5 bill, the A4 tax invoice and the 58 mm receipt as PNG (pdftoppm) to look at', async () => {
    mkdirSync(out, { recursive: true });
    // the roll at a higher resolution: it is 58 mm wide
    const shots: [string, Promise<{ pdf: Buffer }>, number][] = [
      ['hindi-doc-a5-bill', render('bill', '11'), 110],
      ['hindi-doc-tax-invoice', render('bill', '20'), 110],
      ['hindi-doc-receipt-58mm', render('bill', '11', { format: 'thermal-58' }), 200],
    ];
    for (const [name, p, dpi] of shots) {
      const { pdf } = await p;
      const file = join(out, `${name}.pdf`);
      writeFileSync(file, pdf);
      execFileSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', '-singlefile', '-png', file, join(out, name)]);
      rmSync(file);
      expect(readFileSync(join(out, `${name}.png`)).subarray(1, 4).toString()).toBe('PNG');
    }
  });
});

describe('?lang over HTTP', () => {
  let stack: DocStack;
  beforeAll(async () => {
    stack = await startDocuments();
  }, 60_000);
  afterAll(async () => {
    state.docLanguage = undefined;
    await stack?.stop();
  });
  const get = (path: string) => request(stack.url).get(path).set('Authorization', `Bearer ${tokenFor(F.COMPANY_ID)}`).buffer(true).parse(binary);

  it('answers 400 with a sentence for a lang other than en or hi, before asking the owner', async () => {
    const before = asked['sales.sale.document'] ?? 0;
    for (const bad of ['fr', 'HI', 'hindi']) {
      const res = await request(stack.url).get(`/documents/bill/7?lang=${bad}`).set('Authorization', `Bearer ${tokenFor(F.COMPANY_ID)}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('lang must be one of en, hi.');
    }
    expect(asked['sales.sale.document'] ?? 0).toBe(before);
    // a repeated lang is a 400 like any repeated option
    const twice = await request(stack.url).get('/documents/bill/7?lang=hi&lang=en').set('Authorization', `Bearer ${tokenFor(F.COMPANY_ID)}`);
    expect(twice.status).toBe(400);
  });

  it("prints in the company's doc_language by default, and ?lang= overrides it", async () => {
    state.docLanguage = 'hi';
    const hindi = await get('/documents/bill/7');
    expect(hindi.status).toBe(200);
    expectHindi(hindi.body, ['कर बीजक', 'बिल नं.: 7', 'उप-योग ₹1,731.50']);
    const english = await get('/documents/bill/7?lang=en');
    expect(english.status).toBe(200);
    expect(compact(pdfText(english.body))).toContain(compact('Subtotal ₹1,731.50'));
    state.docLanguage = 'en';
    const asked = await get('/documents/receipt/41?lang=hi');
    expect(asked.status).toBe(200);
    expectHindi(asked.body, ['भुगतान रसीद', 'रसीद नं.: 41']);
    const plain = await get('/documents/receipt/41');
    expect(compact(pdfText(plain.body))).toContain('MONEYRECEIPT');
  });
});
