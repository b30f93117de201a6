import type { Fact } from '../facts';
import type { Change, Fold } from '../fold';
import { C } from '../store';
import { daily, type ReadModel, type Row } from './model';

/** What a register row adds to its date's register totals (null: the bill or purchase itself has not arrived). */
export function registerPart(row: Row | null, prefix: 'reg' | 'preg'): Record<string, number> | null {
  if (!row || !(row.sold || row.bought)) return null;
  const amount = Number(row.amount ?? 0);
  const returned = Number(row.returned ?? 0);
  const cancelled = row.cancelled === true;
  return {
    [`${prefix}Count`]: 1,
    [`${prefix}Amount`]: amount,
    [`${prefix}Returned`]: returned,
    [`${prefix}Cancelled`]: cancelled ? amount - returned : 0,
    [`${prefix}Net`]: cancelled ? 0 : amount - returned,
    [`${prefix}Paid`]: Number(row.paid ?? 0),
  };
}

/**
 * Updates a bill's (or purchase's) register row and moves its contribution to the register
 * totals kept on the daily row of its own date: the difference before/after, so a note or a
 * cancel before the bill, or a replay, leaves the totals equal to the sum of the rows.
 */
async function registerRow(collection: string, prefix: 'reg' | 'preg', id: string, ch: Change, companyId: number, w: Fold) {
  const cur = await w.get(collection, id);
  const before = cur ? { ...cur } : null;
  const after = await w.update(collection, id, ch);
  const incs = new Map<string, Record<string, number>>();
  const add = (row: Row | null, sign: 1 | -1) => {
    const part = registerPart(row, prefix);
    if (!part || !row) return;
    const inc = incs.get(String(row.date)) ?? {};
    for (const [k, v] of Object.entries(part)) inc[k] = (inc[k] ?? 0) + sign * v;
    incs.set(String(row.date), inc);
  };
  add(before, -1);
  add(after, 1);
  for (const [date, inc] of incs) {
    if (Object.values(inc).every((v) => v === 0)) continue;
    w.write(C.daily, `${companyId}:${date}`, { inc, onInsert: { companyId, date } });
  }
}

/**
 * Sales and purchase registers: a row per bill and per purchase (notes and cancels netted), their
 * totals on the day row of the bill's date, and the day's sales, returns, cancels, purchases,
 * new dues and payables (the dashboard's cards).
 */
export const registers: ReadModel = {
  name: 'registers',
  kinds: ['sale', 'sale-return', 'sale-cancel', 'purchase', 'purchase-return'],
  collections: [C.invoices, C.purchases, C.daily],
  prefetch(f, want) {
    const c = f.companyId;
    if (f.kind === 'sale' || f.kind === 'sale-return' || f.kind === 'sale-cancel') want(C.invoices, `${c}:${f.saleId}`);
    else if (f.kind === 'purchase' || f.kind === 'purchase-return') want(C.purchases, `${c}:${f.purchaseId}`);
  },
  async fold(f: Fact, w: Fold) {
    const c = f.companyId;
    switch (f.kind) {
      case 'sale':
        daily(f, { sales: f.amount, salesCount: 1, newDues: f.amount - f.paid }, w);
        await registerRow(
          C.invoices,
          'reg',
          `${c}:${f.saleId}`,
          { set: { companyId: c, saleId: f.saleId, date: f.date, docNo: f.docNo, customerId: f.customerId, customerName: f.customerName, amount: f.amount, paid: f.paid, dueDate: f.dueDate, sold: true } },
          c,
          w,
        );
        return;
      case 'sale-return':
        // New dues net of what the note took off the customer's due (its value less the refund).
        daily(f, { returns: f.amount, newDues: -(f.amount - f.refund) }, w);
        await registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { inc: { returned: f.amount }, onInsert: { companyId: c, saleId: f.saleId } }, c, w);
        return;
      case 'sale-cancel':
        // New dues net of the due the cancel undid.
        daily(f, { cancelled: f.amount, newDues: -f.due }, w);
        await registerRow(C.invoices, 'reg', `${c}:${f.saleId}`, { set: { cancelled: true, cancelledAmount: f.amount }, onInsert: { companyId: c, saleId: f.saleId } }, c, w);
        return;
      case 'purchase':
        daily(f, { purchases: f.amount, purchaseCount: 1, newPayables: f.amount - f.paid }, w);
        await registerRow(
          C.purchases,
          'preg',
          `${c}:${f.purchaseId}`,
          { set: { companyId: c, purchaseId: f.purchaseId, date: f.date, docNo: f.docNo, distributorId: f.distributorId, distributorName: f.distributorName, amount: f.amount, paid: f.paid, bought: true } },
          c,
          w,
        );
        return;
      case 'purchase-return':
        daily(f, { purchaseReturns: f.amount }, w);
        await registerRow(C.purchases, 'preg', `${c}:${f.purchaseId}`, { inc: { returned: f.amount }, onInsert: { companyId: c, purchaseId: f.purchaseId } }, c, w);
        return;
      default:
        return;
    }
  },
};
