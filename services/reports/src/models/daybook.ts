import type { Fact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import { daily, type ReadModel } from './model';

function txn(f: Fact, row: Record<string, unknown>, w: Fold) {
  // Ordered by the fact's commit time, then its id: the same order live and rebuilt.
  w.write(C.txns, f.eventId, { set: { companyId: f.companyId, date: f.date, at: f.at, kind: f.kind, ...row } });
  // The day book's totals per kind on the day row, so a page of the day need not read the rest.
  daily(f, { [`dbN_${f.kind}`]: 1, [`dbA_${f.kind}`]: Number(row.amount ?? 0) }, w);
}

/**
 * The day book: one row per transaction (`txns`), its count and amount per kind on the day row;
 * `src` is its ledger source, by which a page finds the money each row moved (`cash_moves`).
 * Expenses are rows too (`books.ts`).
 */
export const daybook: ReadModel = {
  name: 'daybook',
  kinds: ['sale', 'sale-return', 'sale-cancel', 'purchase', 'purchase-return', 'payment-received', 'payment-given'],
  collections: [C.txns, C.daily],
  async fold(f: Fact, w: Fold) {
    switch (f.kind) {
      case 'sale':
        return txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.paid, src: `sale:${f.saleId}` }, w);
      case 'sale-return':
        return txn(f, { ref: f.noteId, saleId: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, paid: f.refund, src: `credit-note:${f.noteId}` }, w);
      case 'sale-cancel':
        return txn(f, { ref: f.saleId, docNo: f.docNo, party: f.customerName, partyId: f.customerId, amount: f.amount, src: f.cancelId === null ? null : `sale-cancel:${f.cancelId}` }, w);
      case 'purchase':
        return txn(f, { ref: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.paid, src: `purchase:${f.purchaseId}` }, w);
      case 'purchase-return':
        return txn(f, { ref: f.noteId, purchaseId: f.purchaseId, docNo: f.docNo, party: f.distributorName, partyId: f.distributorId, amount: f.amount, paid: f.refund, src: `debit-note:${f.noteId}` }, w);
      case 'payment-received':
      case 'payment-given':
        return txn(f, { ref: f.paymentId, docNo: null, party: f.partyName, partyId: f.partyId, amount: f.amount, paid: f.amount, src: `payment:${f.paymentId}` }, w);
      default:
        return;
    }
  },
};
