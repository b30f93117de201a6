import type EncoderClass from '@point-of-sale/receipt-printer-encoder' with { 'resolution-mode': 'import' };
import { PAY_MODE_LABELS, type NetworkPrinter, type PaymentLine, type SaleDocument } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import { upiUri } from '../render/codes';
import { amount, date, fixed, unitQty } from '../render/format';
import type { CompanyView } from '../templates/model';
import { billFigures, isWalkIn } from '../templates/sale-docs';
import { gstAccount } from '../templates/tax-invoice';
import { isBillOfSupply } from '../templates/supply';

// The package is an ES module with a CommonJS build (module.exports = the class); this service is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ReceiptPrinterEncoder = require('@point-of-sale/receipt-printer-encoder') as typeof EncoderClass;
type ReceiptPrinterEncoder = EncoderClass;

/** Characters per line in font A: 32 on a 58 mm roll, 48 on 80 mm. */
export const COLUMNS: Record<NetworkPrinter['width'], number> = { 58: 32, 80: 48 };
/** Printable dots per line at 203 dpi: 384 on 58 mm, 576 on 80 mm. */
export const DOTS: Record<NetworkPrinter['width'], number> = { 58: 384, 80: 576 };

/** What the sale took: its tenders when sales recorded them, else `paid` as cash (the spec's callers pay cash). */
export function tenders(sale: SaleDocument): PaymentLine[] {
  if (sale.payments && sale.payments.length) return sale.payments;
  return Money.money(sale.paid).greaterThan(0) ? [{ mode: 'cash', amount: sale.paid }] : [];
}

/** The drawer opens only when cash changed hands. */
export const tookCash = (sale: SaleDocument): boolean => tenders(sale).some((p) => p.mode === 'cash' && Money.money(p.amount).greaterThan(0));

/** The bill's account: total, paid and due, exactly as the PDF bill prints them. */
export function account(sale: SaleDocument): { total: string; paid: string; due: string; dueRounded: string } {
  if (sale.gst) {
    const a = gstAccount(sale, sale.gst);
    return { total: a.total, paid: a.paid, due: a.due, dueRounded: a.dueRounded };
  }
  const f = billFigures(sale);
  return { total: f.total, paid: f.paid, due: f.due, dueRounded: f.dueRounded };
}

/** The UPI link of the amount due (rounded to the rupee, as the PDF's QR), or null when nothing is due or no UPI id. */
export function upiPayload(company: CompanyView, sale: SaleDocument): string | null {
  const due = account(sale).dueRounded;
  if (!company.upiId || !Money.money(due).greaterThan(0)) return null;
  const note = sale.gst ? `Invoice ${sale.gst.invoice_no}` : `Bill ${sale.sale_id}`;
  return upiUri({ upiId: company.upiId, payeeName: company.name, amount: Money.round2(due).toFixed(2), note });
}

/** A grey-free bitmap (RGBA, as pngjs decodes it) of the receipt's Hindi body. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The printer's text in its code page; the rupee sign is not in any of them, so amounts print as "Rs". */
const latin = (s: string) => s.replace(/₹/g, 'Rs ').replace(/×/g, 'x').replace(/[^\x20-\x7e]/g, '?');

function kv(e: ReceiptPrinterEncoder, cols: number, k: string, v: string): void {
  const key = latin(k);
  const val = latin(v);
  const room = Math.max(1, cols - val.length - 1);
  e.line(`${key.slice(0, room).padEnd(room)} ${val}`);
}

/**
 * The bill as ESC/POS: text lines (or the Hindi body as a raster image), the UPI QR with GS ( k,
 * the drawer pulse (ESC p) only when the sale took cash, then the cut (GS V).
 */
export function encodeBill(printer: NetworkPrinter, company: CompanyView, sale: SaleDocument, hindiBody: Raster | null): Uint8Array {
  const cols = COLUMNS[printer.width];
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: cols, imageMode: 'raster', codepageMapping: 'epson' });
  e.initialize().codepage(printer.encoding);
  if (hindiBody) {
    e.align('left').image(hindiBody, hindiBody.width, hindiBody.height, 'threshold', 160);
  } else {
    const a = account(sale);
    const f = sale.gst ? null : billFigures(sale);
    e.align('center').bold(true).line(latin(company.name)).bold(false);
    for (const l of [company.add1, company.add2, company.mob1, company.gstin ? `GSTIN ${company.gstin}` : '']) if (l) e.line(latin(l));
    e.line(latin(sale.gst ? `${isBillOfSupply(sale.gst) ? 'Bill of Supply' : 'Tax Invoice'} ${sale.gst.invoice_no}` : `Bill ${sale.sale_id}`));
    e.align('left');
    kv(e, cols, `Date ${date(sale.date)}`, sale.cancelled ? 'CANCELLED' : '');
    if (!isWalkIn(sale.customer) && sale.customer) e.line(latin(`Bill to: ${sale.customer.name}`));
    e.rule();
    sale.soldProducts.forEach((l, i) => {
      e.line(latin(`${i + 1}. ${l.product_name}`).slice(0, cols));
      kv(e, cols, `  ${unitQty(l.quantity, l.per_peice_quantity)} ${l.unit} x ${fixed(l.price)}`, amount(l.amount));
    });
    e.rule();
    if (f) {
      kv(e, cols, 'Subtotal', amount(f.subtotal));
      if (!Money.money(f.tax).isZero()) kv(e, cols, 'Tax', amount(f.tax));
      if (!Money.money(f.shipping).isZero()) kv(e, cols, 'Shipping', amount(f.shipping));
      if (!Money.money(f.discount).isZero()) kv(e, cols, 'Discount', `-${amount(f.discount)}`);
      if (!Money.money(f.previousDue).isZero()) kv(e, cols, 'Previous due', amount(f.previousDue));
    } else if (sale.gst) {
      kv(e, cols, 'Invoice value', amount(sale.gst.invoice_value));
    }
    e.bold(true);
    kv(e, cols, 'Total', `Rs ${amount(a.total)}`);
    e.bold(false);
    for (const p of tenders(sale)) kv(e, cols, `Paid (${PAY_MODE_LABELS[p.mode] ?? p.mode}${p.ref ? ` ${p.ref}` : ''})`, amount(p.amount));
    kv(e, cols, 'Due', amount(a.due));
  }
  const upi = upiPayload(company, sale);
  if (upi) {
    e.align('center');
    if (!hindiBody) e.line(latin(`Scan to pay Rs ${Money.round2(account(sale).dueRounded).toFixed(2)} by UPI`));
    e.qrcode(upi, { model: 2, size: printer.width === 58 ? 5 : 6, errorlevel: 'm' });
  }
  if (!hindiBody) e.align('center').line('Thank you').align('left');
  if (tookCash(sale)) e.pulse();
  e.cut('partial');
  return e.encode();
}
