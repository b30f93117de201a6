import fs from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { DOMParser } from '@xmldom/xmldom';
import { tallyLedgerNames, type CreditNoteDetails, type Customer, type DebitNoteDetails, type PaymentDocument, type PurchaseDocument, type SaleDocument } from '@bahi/contracts';
import { BadRequestException } from '@nestjs/common';
import { creditNoteVouchers, customerParty, debitNoteVouchers, expenseVoucher, imbalance, paymentVoucher, purchaseVouchers, saleVouchers, type Naming, type TallyVoucher } from '../src/tally/vouchers';
import { tallyXml } from '../src/tally/xml';
import { tallyRange } from '../src/tally/tally.export';

/**
 * The Tally export's vouchers from documents as the owners answer them (hand-made, figures
 * hand-computed below), the XML written from them validated against tally.xsd with libxml2
 * (xmllint-wasm) and read back.
 */
const XSD = fs.readFileSync(path.join(__dirname, '..', 'src', 'tally', 'tally.xsd'), 'utf8');
const names = tallyLedgerNames({ cash: 'Cash in Hand', output_cgst: 'CGST Output @ Shop' });
const SHARMA = 'शर्मा & Sons <Retail> "Best"';
const customer = (id: number, name: string, gstin: string | null, state: string): Customer => ({
  id, client_id: id, name, mobile_no: '9800000000', address_line_1: 'Shop 4, M.G. Road', address_line_2: '', city_or_district: 'Pune', state, country: 'India', postal_code: '411001', gstin,
});
const naming: Naming = { ledgers: names, customer: (c) => (c && !c.walkIn ? c.name : names.walk_in!), distributor: (_id, name) => name };
const gline = (sl_no: number, rate: string, taxable: string, cgst: string, sgst: string, igst: string) => ({
  sl_no, hsn_code: '1006', uqc: 'PCS', gst_rate: rate, price_includes_tax: false, qty: '1', line_taxable: taxable, share: '0', taxable_value: taxable, cgst, sgst, igst,
});
const gst = (over: Record<string, unknown>) => ({ tax_mode: 'gst', document: 'tax-invoice', fy: '26-27', serial: 1, invoice_date: '2026-11-02', supplier: {}, recipient: {}, b2b: true, place_of_supply: '27', place_of_supply_name: 'Maharashtra', inter_state: false, state_tax_name: 'SGST', reverse_charge: false, ...over });

// Two lines after a summary discount of Rs 75 (shares already in taxable_value): 1000.00 at 5 %,
// 423.73 at 18 %. CGST = SGST = 25.00 + 38.14 (423.73 x 9 % = 38.1357) = 63.14 each; exact total
// 1423.73 + 126.28 = 1550.01, invoice 1550, round off -0.01. Paid 1000 cash + 550 UPI.
const billA = {
  sale_id: 7, date: '2026-11-02', due_date: null, customer: customer(3, SHARMA, '27AAPFU0939F1ZV', 'Maharashtra'), soldProducts: [], subtotal: '1498.73', tax: '0', shipping: '0', summery_discount: '75', previousDue: '0', paid: '1550', delivery: null,
  payments: [{ mode: 'cash', amount: '1000' }, { mode: 'upi', amount: '550', ref: 'UPI123' }],
  gst: gst({ invoice_no: 'INV/26-27/0007', lines: [gline(1, '5', '1000.00', '25.00', '25.00', '0.00'), gline(2, '18', '423.73', '38.14', '38.14', '0.00')], taxable_total: '1423.73', cgst_total: '63.14', sgst_total: '63.14', igst_total: '0.00', tax_total: '126.28', exact_total: '1550.01', round_off: '-0.01', invoice_value: '1550' }),
} as unknown as SaleDocument;

const fig = (v: TallyVoucher) => Object.fromEntries(v.entries.map((e) => [e.ledger, e.dr.toFixed(2)]));

it('a GST bill of 5 % and 18 % lines with a summary discount and round off, paid cash + UPI: a Sales voucher and two Receipts, each balanced to the paisa', () => {
  const [sale, r1, r2, ...rest] = saleVouchers(billA, naming);
  expect(rest).toEqual([]);
  expect(sale).toMatchObject({ type: 'Sales', number: 'INV/26-27/0007', party: SHARMA, date: '2026-11-02', cancelled: false });
  // + debit, - credit
  expect(fig(sale!)).toEqual({ [SHARMA]: '1550.00', 'Sales GST 5%': '-1000.00', 'Sales GST 18%': '-423.73', 'CGST Output @ Shop': '-63.14', 'Output SGST': '-63.14', 'Round Off': '0.01' });
  expect(r1).toMatchObject({ type: 'Receipt', number: 'INV/26-27/0007-R/1', party: SHARMA });
  expect(fig(r1!)).toEqual({ 'Cash in Hand': '1000.00', [SHARMA]: '-1000.00' });
  expect(fig(r2!)).toEqual({ 'UPI Collections': '550.00', [SHARMA]: '-550.00' });
  expect(r2!.narration).toContain('UPI123');
  for (const v of [sale!, r1!, r2!]) expect(imbalance(v).toFixed(2)).toBe('0.00');
});

it('an inter-state bill posts IGST; a cancelled bill keeps its number with ISCANCELLED and no entries; a walk-in cash bill in simple mode is one Sales ledger', () => {
  const igst = { ...billA, sale_id: 8, customer: customer(4, 'Patel Stores', '24AAACP1234A1Z5', 'Gujarat'), paid: '0', payments: null,
    gst: gst({ invoice_no: 'INV/26-27/0008', inter_state: true, place_of_supply: '24', lines: [gline(1, '18', '2000.00', '0.00', '0.00', '360.00')], taxable_total: '2000.00', cgst_total: '0.00', sgst_total: '0.00', igst_total: '360.00', tax_total: '360.00', exact_total: '2360.00', round_off: '0.00', invoice_value: '2360' }) } as unknown as SaleDocument;
  const [v] = saleVouchers(igst, naming);
  expect(fig(v!)).toEqual({ 'Patel Stores': '2360.00', 'Sales GST 18%': '-2000.00', 'Output IGST': '-360.00' });
  expect(saleVouchers(igst, naming)).toHaveLength(1); // nothing paid: no receipt

  const cancelled = saleVouchers({ ...igst, cancelled: { date: '2026-11-03', reason: 'wrong customer' } } as SaleDocument, naming);
  expect(cancelled).toEqual([expect.objectContaining({ type: 'Sales', number: 'INV/26-27/0008', cancelled: true, entries: [] })]);

  // Simple mode: 1000 + the spec's 18 % (180) + shipping 50 - discount 30 = 1200, all of it Sales.
  const simple = { sale_id: 9, date: '2026-11-04', due_date: null, customer: { ...customer(0, 'Walk-in', null, ''), walkIn: true }, soldProducts: [], subtotal: '1000', tax: '180', shipping: '50', summery_discount: '30', previousDue: '0', paid: '1200', delivery: null, gst: null } as unknown as SaleDocument;
  const [s, r] = saleVouchers(simple, naming);
  expect(s!.number).toBe('9');
  expect(fig(s!)).toEqual({ 'Walk-in Customer': '1200.00', Sales: '-1200.00' });
  expect(fig(r!)).toEqual({ 'Cash in Hand': '1200.00', 'Walk-in Customer': '-1200.00' }); // no payments recorded: cash
});

it('a credit note takes the 18 % line back (Sales and output tax debited); a purchase with a debit note refunded in cash', () => {
  // The 18 % line back: 423.73 + 38.14 + 38.14 = 500.01.
  const note = { creditNoteId: 1, credit_note_no: 'CN/26-27/0001', saleId: 7, sale_date: '2026-11-02', customer: billA.customer, walkIn: false, date: '2026-11-05', reason: 'damaged',
    lines: [{ sl_no: 2, value: 500.01 }], subtotal: 450, discount: 0, tax: 0, shipping: 0, amount: 500.01, refund: 0,
    gst: { tax_mode: 'gst', invoice_no: 'INV/26-27/0007', invoice_date: '2026-11-02', gstin: '27AAPFU0939F1ZV', place_of_supply: '27', place_of_supply_name: 'Maharashtra', inter_state: false, state_tax_name: 'SGST', taxable_total: 423.73, cgst_total: 38.14, sgst_total: 38.14, igst_total: 0, tax_total: 76.28, round_off: 0 } } as unknown as CreditNoteDetails;
  const [cn, ...none] = creditNoteVouchers(note, billA, naming);
  expect(none).toEqual([]);
  expect(cn).toMatchObject({ type: 'Credit Note', number: 'CN/26-27/0001', party: SHARMA });
  expect(fig(cn!)).toEqual({ [SHARMA]: '-500.01', 'Sales GST 18%': '423.73', 'CGST Output @ Shop': '38.14', 'Output SGST': '38.14' });

  // 800.00 at 12 % + CGST 48.00 + SGST 48.00 = 896.00; Rs 500 paid by bank transfer.
  const purchase = { purchaseId: 3, date: '2026-11-06', bill_no: 'GT/778', distributorId: 2, distributorName: 'Gupta Traders', subtotal: '800', tax: '96', shipping: '0', discount: '0', amount: '896', paid: '500', payments: [{ mode: 'bank', amount: '500' }],
    gst: { distributor_gstin: '27AAACG1111A1Z2', distributor_state_code: '27', distributor_state_name: 'Maharashtra', company_state_code: '27', inter_state: false, lines: [{ sl_no: 1, hsn_code: '1006', gst_rate: '12', taxable_value: '800.00', cgst: '48.00', sgst: '48.00', igst: '0.00' }], taxable_total: '800.00', cgst_total: '48.00', sgst_total: '48.00', igst_total: '0.00', tax_total: '96.00' } } as PurchaseDocument;
  const [pv, pay] = purchaseVouchers(purchase, naming);
  expect(pv).toMatchObject({ type: 'Purchase', number: 'GT/778', party: 'Gupta Traders' });
  expect(fig(pv!)).toEqual({ 'Gupta Traders': '-896.00', 'Purchase GST 12%': '800.00', 'Input CGST': '48.00', 'Input SGST': '48.00' });
  expect(fig(pay!)).toEqual({ 'Gupta Traders': '500.00', 'Bank Account': '-500.00' });
  expect(pay!.type).toBe('Payment');

  // Half back: 400.00 + 24.00 + 24.00 = 448.00, refunded in cash.
  const debit = { debitNoteId: 1, debit_note_no: 'DN/26-27/0001', purchaseId: 3, purchase_date: '2026-11-06', bill_no: 'GT/778', distributor_id: 2, name: 'Gupta Traders', date: '2026-11-07', reason: 'short expiry',
    lines: [{ sl_no: 1, value: 448 }], subtotal: 400, discount: 0, tax: 0, shipping: 0, amount: 448, refund: 448,
    gst: { tax_mode: 'gst', invoice_no: 'GT/778', invoice_date: '2026-11-06', gstin: '27AAACG1111A1Z2', place_of_supply: '27', place_of_supply_name: 'Maharashtra', inter_state: false, state_tax_name: 'SGST', taxable_total: 400, cgst_total: 24, sgst_total: 24, igst_total: 0, tax_total: 48, round_off: 0 } } as unknown as DebitNoteDetails;
  const [dn, back] = debitNoteVouchers(debit, purchase, naming);
  expect(fig(dn!)).toEqual({ 'Gupta Traders': '448.00', 'Purchase GST 12%': '-400.00', 'Input CGST': '-24.00', 'Input SGST': '-24.00' });
  expect(back!.type).toBe('Receipt');
  expect(fig(back!)).toEqual({ 'Cash in Hand': '448.00', 'Gupta Traders': '-448.00' });
  for (const v of [cn!, pv!, pay!, dn!, back!]) expect(imbalance(v).toFixed(2)).toBe('0.00');

  // A payment received in two tenders is one Receipt; one given is a Payment.
  const rec = paymentVoucher({ paymentId: 5, partyKind: 'customer', partyId: 3, date: '2026-11-08', amount: '700', payments: [{ mode: 'cheque', amount: '400', ref: 'CHQ 000123' }, { mode: 'card', amount: '300' }] } as PaymentDocument, SHARMA, naming);
  expect(fig(rec)).toEqual({ Cheques: '400.00', 'Card Collections': '300.00', [SHARMA]: '-700.00' });
  const given = paymentVoucher({ paymentId: 6, partyKind: 'distributor', partyId: 2, date: '2026-11-08', amount: '396', payments: [{ mode: 'cash', amount: '396' }] } as PaymentDocument, 'Gupta Traders', naming);
  expect(given.type).toBe('Payment');
  expect(fig(given)).toEqual({ 'Gupta Traders': '396.00', 'Cash in Hand': '-396.00' });
});

it('the file is valid against tally.xsd, escapes & < > quotes, keeps Devanagari, signs debits as Tally does and balances every voucher', async () => {
  const vouchers = [...saleVouchers(billA, naming), ...saleVouchers({ ...billA, sale_id: 10, cancelled: { date: '2026-11-03', reason: 'duplicate' } } as SaleDocument, naming)];
  const used = new Set(vouchers.flatMap((v) => v.entries.map((e) => e.ledger)));
  const xml = tallyXml({ company: 'Bahi & Co <Demo>', ledgers: names, used, parties: [customerParty(billA.customer!, SHARMA)], vouchers });
  expect(xml).toContain('शर्मा &amp; Sons &lt;Retail&gt;');
  expect(xml).not.toContain('<Retail>');
  const result = await validateXML({ xml: [{ fileName: 'tally.xml', contents: xml }], schema: [{ fileName: 'tally.xsd', contents: XSD }] });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);

  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const text = (el: Element, tag: string) => el.getElementsByTagName(tag)[0]?.textContent ?? '';
  expect(text(doc.documentElement as unknown as Element, 'SVCURRENTCOMPANY')).toBe('Bahi & Co <Demo>');
  const ledgers = Array.from(doc.getElementsByTagName('LEDGER')).map((l) => l.getAttribute('NAME'));
  expect(ledgers).toEqual(expect.arrayContaining([SHARMA, 'Cash in Hand', 'UPI Collections', 'Sales GST 5%', 'Sales GST 18%', 'CGST Output @ Shop', 'Output SGST', 'Round Off']));
  expect(ledgers).not.toContain('Purchase GST 12%'); // only what the vouchers use
  const party = Array.from(doc.getElementsByTagName('LEDGER')).find((l) => l.getAttribute('NAME') === SHARMA)!;
  expect(text(party as unknown as Element, 'PARENT')).toBe('Sundry Debtors');
  expect(text(party as unknown as Element, 'PARTYGSTIN')).toBe('27AAPFU0939F1ZV');
  expect(text(party as unknown as Element, 'LEDSTATENAME')).toBe('Maharashtra');
  const vs = Array.from(doc.getElementsByTagName('VOUCHER'));
  expect(vs.map((v) => [text(v as unknown as Element, 'VOUCHERTYPENAME'), text(v as unknown as Element, 'VOUCHERNUMBER'), text(v as unknown as Element, 'ISCANCELLED')])).toEqual([
    ['Sales', 'INV/26-27/0007', 'No'], ['Receipt', 'INV/26-27/0007-R/1', 'No'], ['Receipt', 'INV/26-27/0007-R/2', 'No'], ['Sales', 'INV/26-27/0007', 'Yes'],
  ]);
  expect(text(vs[0] as unknown as Element, 'DATE')).toBe('20261102');
  for (const v of vs) {
    let paise = 0;
    for (const e of Array.from(v.getElementsByTagName('ALLLEDGERENTRIES.LIST'))) {
      const amount = text(e as unknown as Element, 'AMOUNT');
      const debit = text(e as unknown as Element, 'ISDEEMEDPOSITIVE') === 'Yes';
      expect(amount.startsWith('-')).toBe(debit); // debit: Yes with a negative amount
      paise += Math.round(Number(amount) * 100);
    }
    expect(paise).toBe(0);
  }
  const first = Array.from(vs[0]!.getElementsByTagName('ALLLEDGERENTRIES.LIST')).map((e) => [text(e as unknown as Element, 'LEDGERNAME'), text(e as unknown as Element, 'AMOUNT')]);
  expect(first).toEqual([[SHARMA, '-1550.00'], ['Sales GST 5%', '1000.00'], ['Sales GST 18%', '423.73'], ['CGST Output @ Shop', '63.14'], ['Output SGST', '63.14'], ['Round Off', '-0.01']]);
});

it('an expense paid 50.00 cash + 40.00 UPI is a Payment: the expense ledger debited 90.00, each tender credited', () => {
  const v = expenseVoucher({ expenseId: 4, date: '2026-11-09', category: 'tea', note: 'Tea for the shop', payments: [{ mode: 'cash', amount: 5000 }, { mode: 'upi', amount: 4000 }] }, names.expense_tea!, naming);
  expect(v).toMatchObject({ type: 'Payment', number: 'EXP-4', party: 'Tea and Refreshments', narration: 'Bahi expense 4 (tea): Tea for the shop' });
  expect(fig(v)).toEqual({ 'Tea and Refreshments': '90.00', 'Cash in Hand': '-50.00', 'UPI Collections': '-40.00' });
  expect(imbalance(v).toFixed(2)).toBe('0.00');
});

it('the range: real dates, in order, at most 31 days', () => {
  const sentence = (q: Record<string, unknown>) => {
    try {
      tallyRange(q);
      return '';
    } catch (e) {
      expect(e).toBeInstanceOf(BadRequestException);
      return (e as Error).message;
    }
  };
  expect(tallyRange({ from: '2026-01-01', to: '2026-01-31' })).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  expect(sentence({ from: '2026-01-01', to: '2026-02-01' })).toBe('One Tally file covers at most 31 days (a month); you chose 32. Download a month at a time.');
  expect(sentence({ from: '2026-02-30', to: '2026-03-01' })).toMatch(/from and to, written YYYY-MM-DD/);
  expect(sentence({ to: '2026-03-01' })).toMatch(/from and to/);
  expect(sentence({ from: '2026-03-02', to: '2026-03-01' })).toBe('The start date 2026-03-02 is after the end date 2026-03-01. Choose a start on or before the end.');
  expect(sentence({ from: '2026-01-01', to: '2026-12-31' })).toMatch(/at most 31 days .* you chose 365/);
});
