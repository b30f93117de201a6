import type { Fact } from '../facts';
import type { Fold } from '../fold';
import { C } from '../store';
import { daily, type ReadModel } from './model';

/**
 * Money in and out per day on the day row: collections (paid at the counter, payments received,
 * debit-note refunds) and paid out (paid on purchases, payments given, credit-note refunds);
 * cash in hand is their difference (the dashboard, the day book's cash in / out).
 */
export const cash: ReadModel = {
  name: 'cash',
  kinds: ['sale', 'sale-return', 'purchase', 'purchase-return', 'payment-received', 'payment-given'],
  collections: [C.daily],
  async fold(f: Fact, w: Fold) {
    switch (f.kind) {
      case 'sale':
        return daily(f, { collections: f.paid }, w);
      case 'sale-return':
        return daily(f, { paidOut: f.refund }, w);
      case 'purchase':
        return daily(f, { paidOut: f.paid }, w);
      case 'purchase-return':
        return daily(f, { collections: f.refund }, w);
      case 'payment-received':
        return daily(f, { collections: f.amount }, w);
      case 'payment-given':
        return daily(f, { paidOut: f.amount }, w);
      default:
        return;
    }
  },
};
