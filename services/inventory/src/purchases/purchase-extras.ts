import { BadRequestException } from '@nestjs/common';
import { isRealDate, Limits, today } from '@bahi/service-kit';
import { decimalField } from '../common';

/** What the purchase panel adds to spec 000's fields (issue 32): the bill's cost per line and the bill's date. */
export interface PurchaseExtras {
  /** sl_no -> cost price per unit as typed (a decimal string, 2 places at most). */
  costs: Map<number, string>;
  /** The distributor's bill date (YYYY-MM-DD), or null when not given. */
  billDate: string | null;
}

function cost(sl: unknown, cp: unknown, out: Map<number, string>) {
  const s = typeof sl === 'number' ? String(sl) : typeof sl === 'string' ? sl.trim() : '';
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > Limits.maxId) throw new BadRequestException('Each line needs its sl_no (the cart line number).');
  if (out.has(Number(s))) throw new BadRequestException(`Line ${s} is given twice.`);
  if (cp === undefined || cp === null || cp === '') throw new BadRequestException(`Cost price of line ${s} is required.`);
  out.set(Number(s), decimalField(`Cost price of line ${s}`, cp, 2, { max: Limits.maxAmount }).toFixed(2));
}

/** POST /checkOutPurchase's `lines: [{ sl_no, cp }]` and `bill_date`. */
export function parsePurchaseExtras(body: Record<string, unknown> | undefined): PurchaseExtras {
  const b = body ?? {};
  const costs = new Map<number, string>();
  if (b.lines !== undefined && b.lines !== null) {
    if (!Array.isArray(b.lines)) throw new BadRequestException('lines must be a list of { sl_no, cp }.');
    if (b.lines.length > Limits.maxListItems) throw new BadRequestException(`A purchase can have at most ${Limits.maxListItems} lines.`);
    for (const l of b.lines) {
      if (!l || typeof l !== 'object') throw new BadRequestException('lines must be a list of { sl_no, cp }.');
      cost((l as Record<string, unknown>).sl_no, (l as Record<string, unknown>).cp, costs);
    }
  }
  return { costs, billDate: billDate(b.bill_date) };
}

function billDate(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  const d = typeof v === 'string' ? v.trim().slice(0, 10) : '';
  if (!isRealDate(d)) throw new BadRequestException('Bill date must be a date (YYYY-MM-DD).');
  if (d > today()) throw new BadRequestException('Bill date cannot be in the future.');
  return d;
}

/** GET /previewPurchase's costs: `costs=1:12.50,2:30` (sl_no:cp pairs). */
export function parseCostsQuery(v: unknown): Map<number, string> {
  const costs = new Map<number, string>();
  const s = typeof v === 'string' ? v.trim() : '';
  if (!s) return costs;
  const pairs = s.split(',');
  if (pairs.length > Limits.maxListItems) throw new BadRequestException(`A purchase can have at most ${Limits.maxListItems} lines.`);
  for (const pair of pairs) {
    const [sl, cp] = pair.split(':');
    cost(sl, cp, costs);
  }
  return costs;
}
