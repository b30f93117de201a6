/**
 * Share links (services/documents): a read-only public page `/s/<token>` for one document, with
 * its PDF and a UPI Pay button, sent on WhatsApp with a message from the company's template.
 * The token names exactly one document of one company; it expires and can be revoked.
 */
import type { ShareTemplates } from './identity';

/** The documents a link can be made for (a subset of DocumentKinds). */
export const ShareKinds = ['bill', 'estimate', 'receipt', 'statement', 'credit-note'] as const;
export type ShareKind = (typeof ShareKinds)[number];
export type ShareLang = 'en' | 'hi';

/** POST /share (any position of the company). `id`: the bill, estimate, payment, customer or credit note id. */
export interface CreateShareRequest {
  kind: ShareKind;
  id: number;
  /** The message's language, kept on the link: its public page and PDF speak it too. Default: the company's doc_language. */
  lang?: ShareLang;
  /** 'reminder' fills the company's reminder template (due reminders; statements), default 'document'. */
  template?: 'document' | 'reminder';
}
export interface CreateShareReply {
  token: string;
  /** Absolute when the request came through the gateway (its Host), else `/s/<token>`. */
  url: string;
  /** ISO time. */
  expiresAt: string;
  message: string;
  /** `https://wa.me/91<mobile>?text=...`, or `https://wa.me/?text=...` without a mobile (walk-in). */
  waUrl: string;
}

/** One live link of a document (GET /share?kind&id). The token is shown only to the company. */
export interface ShareLinkRow {
  token: string;
  url: string;
  createdAt: string;
  expiresAt: string;
  createdBy: string;
  views: number;
  lastViewedAt: string | null;
}
export interface ListSharesReply {
  links: ShareLinkRow[];
}

/** POST /share/revoke */
export interface RevokeShareRequest {
  token: string;
}
export interface RevokeShareReply {
  done: boolean;
}

/** The public page's path outside /api (`/s/<token>`, `/s/<token>/pdf`): the gateway forwards it to documents without login. */
export const SharePagePrefix = '/s/';

/** Views of one IP allowed per minute on /s/<token> (the gateway answers 429 past it). */
export const SHARE_VIEWS_PER_MINUTE = 60;

/** What a company that never edited its templates sends. Placeholders: {name} {amount} {due_date} {link} {company} {document}. */
export const DEFAULT_SHARE_TEMPLATES: ShareTemplates = {
  document: {
    en: 'Dear {name}, here is your {document} from {company} for {amount}. View and download: {link}',
    hi: 'प्रिय {name}, {company} की ओर से आपका {document} {amount} का है। देखें और डाउनलोड करें: {link}',
  },
  reminder: {
    en: 'Dear {name}, a payment of {amount} to {company} was due on {due_date}. Please pay at the earliest. Statement: {link}',
    hi: 'प्रिय {name}, {company} को {amount} का भुगतान {due_date} को देय था। कृपया जल्द भुगतान करें। खाता विवरण: {link}',
  },
  gstr2b_missing: {
    en: 'Dear {name}, your bill {bill_no} dated {bill_date} (GST {tax}) to {company} does not appear in our GSTR-2B for {period}. Please report it in your GSTR-1 so we can claim the input tax credit.',
    hi: 'प्रिय {name}, {company} को दिया आपका बिल {bill_no} दिनांक {bill_date} (जीएसटी {tax}) हमारे {period} के GSTR-2B में नहीं दिख रहा है। कृपया इसे अपने GSTR-1 में दर्ज करें ताकि हम इनपुट टैक्स क्रेडिट ले सकें।',
  },
};
export const DEFAULT_SHARE_EXPIRY_DAYS = 30;

/** POST /customers/reminded (ledger): records that these customers were reminded now. */
export interface CustomersRemindedRequest {
  clientIds: number[];
}
export interface CustomersRemindedReply {
  done: boolean;
  /** ISO time recorded. */
  lastRemindedAt: string;
}

/**
 * GET /getClientsList?overdue=1[&pageNo] (ledger): customers whose due date has passed (in IST)
 * with a due above zero, most days overdue first. Without `overdue` the spec's reply is unchanged.
 */
export interface OverdueClientRow {
  id: number;
  name: string;
  mobile_no: string;
  city_or_district: string;
  due: number;
  /** YYYY-MM-DD */
  due_date: string;
  days_overdue: number;
  /** ISO time, or null when never reminded. */
  last_reminded_at: string | null;
}
export interface OverdueClientsReply {
  clientsList: OverdueClientRow[];
  noOfPages: number;
}

/**
 * WhatsApp message to a distributor whose bill is missing in GSTR-2B (issue 31, template
 * `gstr2b_missing`; the company's own from getCompanyDetails' share_templates, these when it has none).
 * Placeholders: {name} {company} {bill_no} {bill_date} {tax} {period}.
 */
export const GSTR2B_MISSING_TEMPLATES: { en: string; hi: string } = DEFAULT_SHARE_TEMPLATES.gstr2b_missing;

/** Fills a template's {placeholders}; an unknown one is left as written. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}
