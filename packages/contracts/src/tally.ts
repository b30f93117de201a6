/**
 * The accountant's hand-off to TallyPrime (issue 31): GET /export/tally (reports) and the
 * mapping of Bahi's ledgers to the names in the accountant's Tally company (identity,
 * GET/PUT /accountant/ledgers). Tally matches ledgers by exact name, so every name the export
 * writes goes through this mapping.
 */
import type { PaymentLine, PayMode } from './ledger';
import type { PurchaseGst } from './gst';
import { DEFAULT_EXPENSE_CATEGORIES } from './books';

/** GST rates a sales or purchase ledger exists for (the same list as @bahi/gst GST_RATES). */
export const TALLY_GST_RATES = ['0', '0.1', '0.25', '1', '1.5', '3', '5', '6', '7.5', '12', '18', '28', '40'] as const;
export const TALLY_PAY_MODES = ['cash', 'upi', 'card', 'cheque', 'bank'] as const satisfies readonly PayMode[];

/** Tally's predefined groups the export puts each ledger under. */
export type TallyGroup = 'Sales Accounts' | 'Purchase Accounts' | 'Duties & Taxes' | 'Indirect Expenses' | 'Cash-in-Hand' | 'Bank Accounts' | 'Sundry Debtors' | 'Sundry Creditors';

export interface TallyLedgerDef {
  key: string;
  /** The name Tally gets unless the company maps it to another. */
  name: string;
  group: TallyGroup;
}

const EXPENSE_LEDGER_NAMES: Record<(typeof DEFAULT_EXPENSE_CATEGORIES)[number], string> = {
  rent: 'Rent',
  salary: 'Salary',
  electricity: 'Electricity Charges',
  transport: 'Transport Charges',
  tea: 'Tea and Refreshments',
  other: 'Other Expenses',
};

/**
 * Bahi's ledgers and their default Tally names: simple mode's one sales and one purchase
 * ledger; a sales and a purchase ledger per GST rate; output and input CGST/SGST/IGST; round
 * off; one cash or bank ledger per payment mode; the walk-in customer's party ledger; one
 * expense ledger per default expense category.
 */
export const TALLY_LEDGERS: readonly TallyLedgerDef[] = [
  { key: 'sales', name: 'Sales', group: 'Sales Accounts' },
  { key: 'purchase', name: 'Purchase', group: 'Purchase Accounts' },
  ...TALLY_GST_RATES.map((r) => ({ key: `sales_${r}`, name: `Sales GST ${r}%`, group: 'Sales Accounts' as const })),
  ...TALLY_GST_RATES.map((r) => ({ key: `purchase_${r}`, name: `Purchase GST ${r}%`, group: 'Purchase Accounts' as const })),
  { key: 'output_cgst', name: 'Output CGST', group: 'Duties & Taxes' },
  { key: 'output_sgst', name: 'Output SGST', group: 'Duties & Taxes' },
  { key: 'output_igst', name: 'Output IGST', group: 'Duties & Taxes' },
  { key: 'input_cgst', name: 'Input CGST', group: 'Duties & Taxes' },
  { key: 'input_sgst', name: 'Input SGST', group: 'Duties & Taxes' },
  { key: 'input_igst', name: 'Input IGST', group: 'Duties & Taxes' },
  { key: 'round_off', name: 'Round Off', group: 'Indirect Expenses' },
  { key: 'cash', name: 'Cash', group: 'Cash-in-Hand' },
  { key: 'upi', name: 'UPI Collections', group: 'Bank Accounts' },
  { key: 'card', name: 'Card Collections', group: 'Bank Accounts' },
  { key: 'cheque', name: 'Cheques', group: 'Bank Accounts' },
  { key: 'bank', name: 'Bank Account', group: 'Bank Accounts' },
  { key: 'walk_in', name: 'Walk-in Customer', group: 'Sundry Debtors' },
  // Expenses (ledger, issue 29) per default category; a category a company added is its own ledger name.
  ...DEFAULT_EXPENSE_CATEGORIES.map((c) => ({ key: `expense_${c}`, name: EXPENSE_LEDGER_NAMES[c], group: 'Indirect Expenses' as const })),
];

/** The longest ledger name the mapping keeps (TallyPrime's own limit on a ledger name is larger). */
export const TALLY_NAME_MAX = 100;

/** GET /accountant/ledgers (managers) and the reply of PUT: every ledger with the name in use. */
export interface AccountantLedgersReply {
  ledgers: { key: string; group: TallyGroup; default_name: string; name: string }[];
}
/** PUT /accountant/ledgers (managers): `{ ledgers: { key: name } }`; '' puts the default back; keys left out are kept. */
export interface SetAccountantLedgersRequest {
  ledgers: Record<string, string>;
}

/** The company's names for every key (defaults merged with its own); what the export uses. */
export function tallyLedgerNames(own: Readonly<Record<string, string>> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of TALLY_LEDGERS) out[l.key] = own?.[l.key] || l.name;
  return out;
}

/**
 * The most days one Tally file covers: a month (the monthly return period; a quarterly filer
 * downloads three). Each voucher is a request to its owner, and the gateway waits 60 s for an answer.
 */
export const TALLY_MAX_DAYS = 31;

/** The sentences of GET /export/tally's refusals. */
export const TALLY_MESSAGES = {
  manager: 'Only a manager can download the Tally file.',
  dates: 'Choose the dates to export: from and to, written YYYY-MM-DD (for example 2026-04-01).',
  reversed: (from: string, to: string) => `The start date ${from} is after the end date ${to}. Choose a start on or before the end.`,
  tooLong: (days: number) => `One Tally file covers at most ${TALLY_MAX_DAYS} days (a month); you chose ${days}. Download a month at a time.`,
  unavailable: 'The bills could not be read right now, so the Tally file was not made. Please try again shortly.',
} as const;

/** reports -> inventory: one complete purchase with its frozen figures, for the Tally export; null when unknown. */
export interface PurchaseDocumentRequest {
  companyId: number;
  purchaseId: number;
}
export interface PurchaseDocument {
  purchaseId: number;
  date: string;
  /** The distributor's own bill number. */
  bill_no: string;
  distributorId: number;
  distributorName: string;
  subtotal: string;
  tax: string;
  shipping: string;
  discount: string;
  amount: string;
  paid: string;
  /** How `paid` was tendered; absent: cash. */
  payments: PaymentLine[] | null;
  gst: PurchaseGst | null;
}

/** reports -> ledger: a payment received or given with its tenders; null when unknown. */
export interface PaymentDocumentRequest {
  companyId: number;
  paymentId: number;
}
export interface PaymentDocument {
  paymentId: number;
  partyKind: 'customer' | 'distributor';
  partyId: number;
  date: string;
  amount: string;
  payments: PaymentLine[];
}

/** reports -> identity: the company's Tally ledger names (every key, defaults filled in). */
export interface AccountantLedgersRequest {
  companyId: number;
}
export interface AccountantLedgersNames {
  names: Record<string, string>;
}

export const TallySubjects = {
  /** inventory: a complete purchase (PurchaseDocument); null when unknown. */
  purchaseDocument: 'inventory.purchase.document',
  /** ledger: a payment received or given (PaymentDocument); null when unknown. */
  paymentDocument: 'ledger.payment.document',
  /** identity: the company's Tally ledger names. */
  accountantLedgers: 'identity.accountant.ledgers',
} as const;

declare module './subjects' {
  interface SubjectPayloads {
    'inventory.purchase.document': PurchaseDocumentRequest;
    'ledger.payment.document': PaymentDocumentRequest;
    'identity.accountant.ledgers': AccountantLedgersRequest;
  }
  interface SubjectReplies {
    'inventory.purchase.document': PurchaseDocument | null;
    'ledger.payment.document': PaymentDocument | null;
    'identity.accountant.ledgers': AccountantLedgersNames;
  }
}
