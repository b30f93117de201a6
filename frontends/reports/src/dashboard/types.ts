// GET /reports/dashboard (services/reports README): amounts are decimal strings with two places,
// dates IST YYYY-MM-DD.
export type CardKey = 'sales' | 'collections' | 'newDues' | 'cashInHand';

export interface TopProduct {
  productId: number;
  name: string;
  value: string;
  profit: string;
  /** Profit over the value that has frozen costs, in percent; null when no line has a cost. */
  marginPct: number | null;
}

export interface OverdueParty {
  partyId: number;
  name: string;
  balance: string;
  b0_30: string;
  b31_60: string;
  b61_90: string;
  b90: string;
  oldestDue: string | null;
  dueDate: string | null;
  daysOverdue: number;
}

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
