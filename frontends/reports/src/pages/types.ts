// The reports' JSON as the service answers it (services/reports README): amounts are decimal strings.
export interface DaybookRow {
  kind: string;
  ref: number;
  docNo: string | null;
  party: string;
  partyId: number | null;
  amount: string;
  cashIn: string;
  cashOut: string;
  /** Every mode but cash (upi, card, cheque, bank). */
  bankIn: string;
  bankOut: string;
  payments: Payment[];
  note?: string;
}
export interface Payment {
  mode: 'cash' | 'upi' | 'card' | 'cheque' | 'bank';
  amount: string;
}
export interface Daybook {
  date: string;
  page: number;
  pageSize: number | null;
  rows: DaybookRow[];
  totals: { count: number; byKind: Record<string, string>; cashIn: string; cashOut: string; bankIn: string; bankOut: string };
}
export interface CashbookRow {
  date: string;
  kind: string;
  source: string;
  ref: number | null;
  docNo: string | null;
  party: string;
  payments: Payment[];
  in: string;
  out: string;
  balance: string;
}
export interface Cashbook {
  from: string;
  to: string;
  mode: 'cash' | 'bank';
  openingDate: string | null;
  page: number;
  rows: CashbookRow[];
  totals: { opening: string; in: string; out: string; closing: string };
}
export interface PnlFigures {
  sales: string;
  cost: string;
  gross_profit: string;
  expenses: string;
  net_profit: string;
  valueWithoutCost: string;
}
export interface Pnl {
  from: string;
  to: string;
  rows: (PnlFigures & { month: string })[];
  totals: PnlFigures;
}
export interface SalesRow {
  saleId: number;
  date: string;
  invoice_no: string | null;
  clientId: number | null;
  customer: string;
  amount: string;
  returned: string;
  cancelled: boolean;
  net: string;
  paid: string;
}
export interface SalesRegister {
  from: string;
  to: string;
  clientId: number | null;
  page: number;
  rows: SalesRow[];
  totals: { count: number; amount: string; returned: string; cancelled: string; net: string; paid: string };
}
export interface PurchaseRow {
  purchaseId: number;
  date: string;
  bill_no: string | null;
  distributorId: number | null;
  distributor: string;
  amount: string;
  returned: string;
  net: string;
  paid: string;
}
export interface PurchaseRegister {
  from: string;
  to: string;
  distributorId: number | null;
  page: number;
  rows: PurchaseRow[];
  totals: { count: number; amount: string; returned: string; net: string; paid: string };
}
export interface StockRow {
  productId: number;
  name: string;
  category: string;
  brand: string;
  stock: number;
  minStock: number | string;
  cp: string;
  mrp: string;
  costValue: string;
  mrpValue: string;
}
export interface StockSummary {
  category: string | null;
  brand: string | null;
  page: number;
  rows: StockRow[];
  totals: { products: number; stock: number; costValue: string; mrpValue: string };
}
export interface ProfitRow {
  productId?: number;
  name?: string;
  month?: string;
  category?: string;
  qty?: number;
  value: string;
  cost: string;
  valueWithoutCost: string;
  profit: string;
  marginPct: number | null;
}
export interface Profit {
  from: string;
  to: string;
  by: 'product' | 'category' | 'month';
  rows: ProfitRow[];
  totals: { value: string; cost: string; valueWithoutCost: string; profit: string };
}
export interface AgeingRow {
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
export interface Ageing {
  side: 'receivable' | 'payable';
  asOf: string;
  page: number;
  rows: AgeingRow[];
  totals: { parties: number; balance: string; b0_30: string; b31_60: string; b61_90: string; b90: string };
}
