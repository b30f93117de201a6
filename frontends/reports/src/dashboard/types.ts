// GET /reports/dashboard (services/reports README): amounts are decimal strings with two places,
// dates IST YYYY-MM-DD.
import type { AgeingRow } from '../pages/types';

/** cashInHand and bankBalance: each day's closing balance from the books' opening (cash; upi, card, cheque and bank). */
export type CardKey = 'sales' | 'collections' | 'newDues' | 'cashInHand' | 'bankBalance';

export interface TopProduct {
  productId: number;
  name: string;
  value: string;
  profit: string;
  /** Profit over the value that has frozen costs, in percent; null when no line has a cost. */
  marginPct: number | null;
}

/** A most-overdue customer: an ageing row, as the ageing report lists them. */
export type OverdueParty = AgeingRow;

export type BucketKey = 'b0_30' | 'b31_60' | 'b61_90' | 'b90';

export interface DashboardReply {
  date: string;
  cards: Record<CardKey, { today: string; yesterday: string }>;
  series: { date: string; sales: string; collections: string }[];
  topPeriod: { from: string; to: string };
  topByValue: TopProduct[];
  topByMargin: TopProduct[];
  receivables: { buckets: Record<BucketKey, string>; total: string; mostOverdue: OverdueParty[] };
  lowStock: number;
}
