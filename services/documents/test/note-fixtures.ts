import type { CreditNoteDetails, DebitNoteDetails, NoteLine, SaleDocument } from '@bahi/contracts';
import { customer, sale } from './fixtures';
import { GUJARAT_GSTIN, interB2b, MAHARASHTRA_GSTIN } from './gst-fixtures';

/**
 * Credit and debit notes as sales and inventory send them (returns.ts), with hand-computed
 * figures (the arithmetic is in the comments; the tests read every figure back from the PDF).
 */

const line = (l: Partial<NoteLine> & Pick<NoteLine, 'sl_no' | 'product_id' | 'product_name' | 'quantity' | 'rate' | 'amount' | 'value'>): NoteLine => ({
  hsn_code: '',
  unit: 'pcs',
  per_peice_quantity: 1,
  disc: 0,
  taxable_value: null,
  gst_rate: null,
  cgst: null,
  sgst: null,
  igst: null,
  ...l,
});

/**
 * Credit note 31 (simple mode) against bill 7 of Ramesh Gupta:
 * - Basmati Rice 5kg: 1 bag at 650 - 25 = 625.00
 * - Biscuit Box: 2 boxes of 6 pcs at 10.00 = 12 pcs x 10 = 120.00
 * subtotal 625 + 120 = 745.00; summary discount share 10.00; tax 0 (the bill had none);
 * value 745 - 10 = 735.00; refund 100.00 in cash; the due goes down by 735 - 100 = 635.00.
 */
export const simpleCreditNote: CreditNoteDetails = {
  creditNoteId: 31,
  credit_note_no: 'CN/26-27/0007',
  saleId: 7,
  sale_date: '2026-05-02',
  date: '2026-05-20',
  reason: 'Damaged packets',
  customer,
  walkIn: false,
  lines: [
    line({ sl_no: 4101, product_id: 12, product_name: 'Basmati Rice 5kg', hsn_code: '1006', unit: 'bag', quantity: 1, rate: 650, disc: 25, amount: 625, value: 615.6 }),
    line({ sl_no: 4108, product_id: 40, product_name: 'Biscuit Box', hsn_code: '1905', unit: 'pcs', quantity: 2, per_peice_quantity: 6, rate: 10, amount: 120, value: 119.4 }),
  ],
  subtotal: 745,
  discount: 10,
  tax: 0,
  shipping: 0,
  amount: 735,
  refund: 100,
  gst: null,
};

/**
 * Credit note 32 (GST, inter-state B2B) against invoice GT/26-27/0001 (bill 20, the worked
 * example to Patel Electricals, Gujarat):
 * - Steam Iron: 1 of 3 at 590.00 incl. 18 %: taxable 590 / 1.18 = 500.00, IGST 90.00
 * - Plastic Storage Box: 1 of 2 at 100 - 5 = 95.00 excl. 12 %: taxable 95.00, IGST 95 x 0.12 = 11.40
 * taxable 595.00, IGST 101.40, value 696.40 (no round off: the bill is not complete);
 * refund 200.00; due down by 496.40.
 */
export const gstCreditNote: CreditNoteDetails = {
  creditNoteId: 32,
  credit_note_no: 'CN/26-27/0008',
  saleId: 20,
  sale_date: '2026-05-14',
  date: '2026-05-21',
  reason: 'Wrong model delivered',
  customer: { ...interB2b.customer!, address_line_1: '45 Relief Road', city_or_district: 'Ahmedabad', state: 'Gujarat', postal_code: '380001' },
  walkIn: false,
  lines: [
    line({ sl_no: 4101, product_id: 100, product_name: 'Steam Iron 1200W', hsn_code: '8516', quantity: 1, rate: 590, amount: 590, value: 590, taxable_value: 500, gst_rate: 18, cgst: 0, sgst: 0, igst: 90 }),
    line({ sl_no: 4108, product_id: 101, product_name: 'Plastic Storage Box', hsn_code: '3924', quantity: 1, rate: 100, disc: 5, amount: 95, value: 106.4, taxable_value: 95, gst_rate: 12, cgst: 0, sgst: 0, igst: 11.4 }),
  ],
  subtotal: 685,
  discount: 0,
  tax: 101.4,
  shipping: 0,
  amount: 696.4,
  refund: 200,
  gst: {
    tax_mode: 'gst',
    invoice_no: 'GT/26-27/0001',
    invoice_date: '2026-05-14',
    gstin: GUJARAT_GSTIN,
    place_of_supply: '24',
    place_of_supply_name: 'Gujarat',
    inter_state: true,
    state_tax_name: 'SGST',
    taxable_total: 595,
    cgst_total: 0,
    sgst_total: 0,
    igst_total: 101.4,
    tax_total: 101.4,
    round_off: 0,
  },
};

/**
 * Debit note 51 (GST, intra-state: Mehta Distributors, Maharashtra like the company) on
 * purchase 41, the distributor's bill MD-2231 of 03-05-2026:
 * - Toor Dal 1kg: 10 kg at 120.30 = 1,203.00 at 5 %: CGST = SGST = 1203 x 0.025 = 30.075 -> 30.08
 * - Notebook A5: 4 packs of 12 pcs at 25.00 = 48 x 25 = 1,200.00 at 12 %: CGST = SGST = 1200 x 0.06 = 72.00
 * taxable 2,403.00, CGST 102.08, SGST 102.08, exact 2,607.16, round off -0.16, value 2,607.00;
 * the distributor paid back 1,000.00; its due down by 1,607.00.
 */
export const gstDebitNote: DebitNoteDetails = {
  debitNoteId: 51,
  debit_note_no: 'DN/26-27/0003',
  purchaseId: 41,
  purchase_date: '2026-05-03',
  bill_no: 'MD-2231',
  distributor_id: 6,
  name: 'Mehta Distributors',
  date: '2026-05-22',
  reason: 'Expired stock',
  lines: [
    line({ sl_no: 1, product_id: 31, product_name: 'Toor Dal 1kg', hsn_code: '0713', unit: 'kg', quantity: 10, rate: 120.3, amount: 1203, value: 1263.16, taxable_value: 1203, gst_rate: 5, cgst: 30.08, sgst: 30.08, igst: 0 }),
    line({ sl_no: 2, product_id: 55, product_name: 'Notebook A5', hsn_code: '4820', quantity: 4, per_peice_quantity: 12, rate: 25, amount: 1200, value: 1344, taxable_value: 1200, gst_rate: 12, cgst: 72, sgst: 72, igst: 0 }),
  ],
  subtotal: 2403,
  discount: 0,
  tax: 204.16,
  shipping: 0,
  amount: 2607,
  refund: 1000,
  gst: {
    tax_mode: 'gst',
    invoice_no: 'MD-2231',
    invoice_date: '2026-05-03',
    gstin: MAHARASHTRA_GSTIN,
    place_of_supply: '27',
    place_of_supply_name: 'Maharashtra',
    inter_state: false,
    state_tax_name: 'SGST',
    taxable_total: 2403,
    cgst_total: 102.08,
    sgst_total: 102.08,
    igst_total: 0,
    tax_total: 204.16,
    round_off: -0.16,
  },
};

/**
 * Debit note 52 (simple mode) on purchase 42 (bill SK/88 of 01-05-2026): 5 kg sugar at 42.00 =
 * 210.00, nothing paid back, the distributor's due down by 210.00.
 */
export const simpleDebitNote: DebitNoteDetails = {
  debitNoteId: 52,
  debit_note_no: 'DN/26-27/0004',
  purchaseId: 42,
  purchase_date: '2026-05-01',
  bill_no: 'SK/88',
  distributor_id: 7,
  name: 'Shree Krishna Traders',
  date: '2026-05-23',
  reason: '',
  lines: [line({ sl_no: 1, product_id: 33, product_name: 'Sugar', hsn_code: '1701', unit: 'kg', quantity: 5, rate: 42, amount: 210, value: 210 })],
  subtotal: 210,
  discount: 0,
  tax: 0,
  shipping: 0,
  amount: 210,
  refund: 0,
  gst: null,
};

/** Bill 7 and invoice GT/26-27/0001, cancelled. */
export const cancelledSale: SaleDocument = { ...sale, sale_id: 17, cancelled: { date: '2026-05-20', reason: 'Customer changed the order' } };
export const cancelledInvoice: SaleDocument = { ...interB2b, sale_id: 27, cancelled: { date: '2026-05-16', reason: 'Billed to the wrong buyer' } };

export const CREDIT_NOTES: Record<number, CreditNoteDetails> = { 31: simpleCreditNote, 32: gstCreditNote };
export const DEBIT_NOTES: Record<number, DebitNoteDetails> = { 51: gstDebitNote, 52: simpleDebitNote };
