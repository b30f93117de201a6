import { Decimal, fixed2 } from './amount';
import { ComputedInvoice } from './invoice';

export interface HsnSummaryRow {
  hsn: string;
  uqc: string;
  rate: string;
  qty: string;
  taxable: string;
  igst: string;
  cgst: string;
  sgst: string;
}

export interface RateSummaryRow {
  rate: string;
  taxable: string;
  igst: string;
  cgst: string;
  sgst: string;
  tax: string;
}

type Acc = { qty: Decimal; taxable: Decimal; igst: Decimal; cgst: Decimal; sgst: Decimal };
const zero = (): Acc => ({ qty: new Decimal(0), taxable: new Decimal(0), igst: new Decimal(0), cgst: new Decimal(0), sgst: new Decimal(0) });

function accumulate(invoices: ComputedInvoice[], keyOf: (l: ComputedInvoice['lines'][number]) => string): Map<string, Acc> {
  const rows = new Map<string, Acc>();
  for (const inv of invoices) {
    for (const l of inv.lines) {
      const k = keyOf(l);
      const a = rows.get(k) ?? zero();
      // Sums of the lines' own rounded amounts, so the summary adds up to the invoice exactly.
      rows.set(k, {
        qty: a.qty.plus(l.qty),
        taxable: a.taxable.plus(l.taxable),
        igst: a.igst.plus(l.igst),
        cgst: a.cgst.plus(l.cgst),
        sgst: a.sgst.plus(l.sgst),
      });
    }
  }
  return rows;
}

const byRate = (a: string, b: string): number => new Decimal(a).comparedTo(new Decimal(b));

/**
 * HSN-wise summary (printed invoice, GSTR-1 Table 12 `hsn`): one row per HSN, UQC and rate,
 * since the portal keeps quantities of different units and rates apart. One or many invoices.
 */
export function hsnSummary(invoices: ComputedInvoice | ComputedInvoice[]): HsnSummaryRow[] {
  const list = Array.isArray(invoices) ? invoices : [invoices];
  const rows = accumulate(list, (l) => `${l.hsn}|${l.uqc}|${l.rate}`);
  return [...rows.entries()]
    .map(([k, a]) => {
      const [hsn, uqc, rate] = k.split('|');
      return { hsn, uqc, rate, qty: a.qty.toFixed(), taxable: fixed2(a.taxable), igst: fixed2(a.igst), cgst: fixed2(a.cgst), sgst: fixed2(a.sgst) };
    })
    .sort((a, b) => a.hsn.localeCompare(b.hsn) || a.uqc.localeCompare(b.uqc) || byRate(a.rate, b.rate));
}

/** Per-rate totals (the tax table of a printed invoice), lowest rate first. */
export function rateSummary(invoices: ComputedInvoice | ComputedInvoice[]): RateSummaryRow[] {
  const list = Array.isArray(invoices) ? invoices : [invoices];
  const rows = accumulate(list, (l) => l.rate);
  return [...rows.entries()]
    .map(([rate, a]) => ({
      rate,
      taxable: fixed2(a.taxable),
      igst: fixed2(a.igst),
      cgst: fixed2(a.cgst),
      sgst: fixed2(a.sgst),
      tax: fixed2(a.igst.plus(a.cgst).plus(a.sgst)),
    }))
    .sort((a, b) => byRate(a.rate, b.rate));
}
