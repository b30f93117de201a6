import type { Model } from 'mongoose';
import { classifyInvoice, Decimal, lineSupplyType, type SupplyType } from '@bahi/gst';
import type { SaleDoc } from '../common/schemas';
import type { CreditNoteDoc } from '../returns/schema';
import { ReturnTotals, type NoteLine, type ResolvedNote } from './gstr1-totals';
import { monthNotes, type ReturnNote } from './notes-data';
import type { ReturnPeriod } from './period';
import { invoices, monthByDay, saleCursor } from './returns-data';

/**
 * The period's totals (GSTR-1's aggregates and GSTR-3B's 3.1 / 3.2) in one streamed pass over its
 * invoices and one over its credit notes. A period is any run of days of one financial year: a
 * month, or a quarterly filer's quarter (gst-filing builds its ReturnPeriod).
 */
export async function periodTotals(sales: Model<SaleDoc>, notes: Model<CreditNoteDoc>, companyId: number, p: ReturnPeriod): Promise<ReturnTotals> {
  const t = new ReturnTotals();
  for await (const s of invoices(monthByDay(sales, companyId, p), { withCancelled: true })) t.add(s);
  return noteTotals(sales, notes, companyId, p, t);
}

/**
 * The period's credit notes into `t`. A note's lines take the supply type of the bill lines they
 * credit, and an unregistered buyer's inter-state note goes to cdnur only when its invoice was a
 * b2cl one: both need the original sale, read once for the notes that need it.
 */
export async function noteTotals(sales: Model<SaleDoc>, notes: Model<CreditNoteDoc>, companyId: number, p: ReturnPeriod, t: ReturnTotals): Promise<ReturnTotals> {
  const list: ReturnNote[] = [];
  for await (const n of monthNotes(notes, companyId, p)) list.push(n);
  const needs = (n: ReturnNote) => (!n.gst.gstin && n.gst.inter_state) || n.lines.some((l) => l.gst && new Decimal(l.gst.gst_rate).isZero());
  const ids = [...new Set(list.filter(needs).map((n) => n.saleId))];
  const originals = new Map<number, { value: string; types: Map<number, SupplyType> }>();
  if (ids.length) {
    for await (const s of saleCursor(sales, { companyId, saleId: { $in: ids } })) {
      originals.set(s.saleId, { value: s.gst.invoice_value, types: new Map(s.gst.lines.map((l) => [l.sl_no, lineSupplyType(l.supply_type, l.gst_rate)])) });
    }
  }
  for (const n of list) {
    const o = originals.get(n.saleId);
    const lines: NoteLine[] = n.lines.flatMap((line) => (line.gst ? [{ line, gst: line.gst, type: o?.types.get(line.sl_no) ?? lineSupplyType(null, line.gst.gst_rate) }] : []));
    const r: ResolvedNote = { note: n, lines, taxable: lines.filter((l) => l.type === 'taxable').map((l) => l.gst) };
    // Table 9B takes the notes of Table 5 (b2cl) invoices; the rest of an unregistered buyer's net Table 7 (b2cs).
    const large = !n.gst.gstin && n.gst.inter_state && o !== undefined && classifyInvoice({ registeredCustomer: false, interState: true, invoiceValue: o.value }) === 'b2cl';
    t.addNote(r, large);
  }
  return t;
}
