import type { Position } from './auth';

/** The signed-in user as the shell shows it (spec 000, section 3). */
export interface UserData {
  id: number;
  name: string;
  position: Position;
  companyId: number | null;
  companyName: string | null;
  /** The user's screen language ('en' default), remembered on the server; set with PUT /profile/language. */
  language?: Language;
}

/** The product's languages: English (default) and Hindi. */
export const Languages = ['en', 'hi'] as const;
export type Language = (typeof Languages)[number];

/** PUT /profile/language: the caller's own screen language. */
export interface SetLanguageRequest {
  language: Language;
}

export interface SetLanguageReply {
  success: boolean;
  language: Language;
}

/** POST /loginReact */
export interface LoginRequest {
  email: string;
  password: string;
}

/** POST /loginReact reply; failures carry success:false and msg with a 4xx status. */
export interface LoginReply {
  success: boolean;
  token?: string;
  forceChange?: boolean;
  user?: UserData;
  msg: string;
}

/** GET /loginReact */
export interface LoginCheckReply {
  authenticated: boolean;
}

/** GET /getUserData */
export interface GetUserDataReply {
  user: UserData;
}

/** POST /logout */
export interface LogoutReply {
  success: boolean;
  msg: string;
}

/** POST /manage/profile/edit/updatePassword */
export interface UpdatePasswordRequest {
  current_password: string;
  new_password: string;
  re_type_new_password: string;
}

/** Reply of both password calls (user and admin). */
export interface SuccessMessageReply {
  success: boolean;
  message: string;
}

/** GET /getCompanyDetails reply and the identity.company.details NATS reply. */
export interface CompanyDetails {
  id: number;
  name: string;
  add1: string;
  add2: string;
  mob1: string;
  mob2: string;
  email: string;
  /** URL path of the logo under the API base (`/companyLogo/{id}`), or null. */
  logo: string | null;
  upiId: string | null;
  /**
   * GST settings. identity always sends them; they are optional in the type so that
   * stubs of identity written before them stay valid: read a missing `tax_mode` as 'simple'.
   */
  tax_mode?: CompanyTaxMode;
  /** The company's GSTIN in capitals, or null. */
  gstin?: string | null;
  /** The GSTIN's first two digits (GST state code, e.g. '27'), or null without a GSTIN. */
  state_code?: string | null;
  /** 1-6 capitals/digits: the PREFIX of PREFIX/YY-YY/NNNN invoice numbers. */
  invoice_prefix?: string;
  /** How GSTR-1 is filed: 'monthly' (default) or 'quarterly' (QRMP: the quarter's GSTR-1, IFF for its first two months). */
  gst_filing?: GstFiling;
  /** Aggregate turnover of the preceding year above Rs 5 crore (default false): HSN codes need 6 digits, not 4 (Notification 78/2020-CT). */
  aato_above_5cr?: boolean;
  /** E-way bills (issue 31): the dispatch PIN ('' until set), town, and the consignment value above which a bill needs one (default 50000). */
  pincode?: string;
  place?: string;
  ewaybill_threshold?: number;
  /** GSTR-3B's input tax credit only from purchases matched with the month's GSTR-2B (default false). */
  itc_from_matched_only?: boolean;
  /** The bill's default print format: 'a5' (the spec's, default), 'thermal-80' or 'thermal-58' (mm rolls). GST mode prints A4 for 'a5'. */
  bill_format?: BillFormat;
  /** The language bills and other documents print in ('en' default, 'hi' Devanagari). */
  doc_language?: Language;
  /** Days a share link lives (1-365, default 30). */
  share_expiry_days?: number;
  /** The shop's public address share links use, set by the platform admin in Setting (overrides BAHI_PUBLIC_URL); null: not set. */
  public_url?: string | null;
  /**
   * WhatsApp message templates, per language ('en', 'hi'), for a shared document, a due reminder
   * and a bill missing in GSTR-2B; each kind's placeholders are TEMPLATE_PLACEHOLDERS'. Defaults
   * are shipped (identity fills them when the company never edited them).
   */
  share_templates?: ShareTemplates;
  /** Counter guards (issue 28): a staff member's discount above this percent (0-100, default 100) needs a manager's PIN. */
  staff_max_discount_percent?: number;
  /** A sale leaving a due on the walk-in customer: 'confirm' (default; the counter asks), 'refuse' (400) or 'allow'. */
  walkin_credit?: WalkinCredit;
  /** Staff may record expenses (issue 29; default false: managers only). */
  staff_expenses?: boolean;
  /** A cash sale needs the cashier's open register session (issue 29; default false). */
  require_register?: boolean;
}

/** Rule 138 CGST Rules: a consignment above Rs 50,000 moves with an e-way bill. */
export const DEFAULT_EWAYBILL_THRESHOLD = 50000;

export const WalkinCredits = ['confirm', 'refuse', 'allow'] as const;
export type WalkinCredit = (typeof WalkinCredits)[number];

/** PUT /profile/pin (managers): the approval PIN, 4-6 digits, stored hashed like a password. */
export interface SetPinRequest {
  current_password: string;
  pin: string;
}

/** identity.approver.list: the company's managers (who may approve a discount); has_pin says whether they set one. */
export interface ApproverListRequest {
  companyId: number;
}
export interface Approver {
  id: number;
  name: string;
  has_pin: boolean;
}
export interface ApproverListReply {
  approvers: Approver[];
}

/** identity.approver.verify: checks a manager's PIN (5 wrong ones lock it for BAHI_LOCKOUT_SECONDS). */
export interface ApproverVerifyRequest {
  companyId: number;
  approverId: number;
  pin: string;
}
/** ok, or why not: status 403 (wrong PIN, not a manager, no PIN) or 429 (locked, with retryAfter seconds). */
export type ApproverVerifyReply = { ok: true; id: number; name: string } | { ok: false; status: 403 | 429; message: string; retryAfter?: number };

export const GstFilings = ['monthly', 'quarterly'] as const;
export type GstFiling = (typeof GstFilings)[number];

export const BillFormats = ['a5', 'thermal-80', 'thermal-58'] as const;
export type BillFormat = (typeof BillFormats)[number];
/** The placeholders a share template may use; anything else in braces is refused. */
export const SharePlaceholders = ['name', 'amount', 'due_date', 'link', 'company', 'document'] as const;
/** The placeholders of the GSTR-2B "missing in 2B" message to a distributor (issue 31). */
export const Gstr2bMissingPlaceholders = ['name', 'company', 'bill_no', 'bill_date', 'tax', 'period'] as const;
/** Each WhatsApp template kind a company edits, with the placeholders it may use. */
export const TEMPLATE_PLACEHOLDERS: Record<keyof ShareTemplates, readonly string[]> = {
  document: SharePlaceholders,
  reminder: SharePlaceholders,
  gstr2b_missing: Gstr2bMissingPlaceholders,
};
/** Longest share template (characters). */
export const SHARE_TEMPLATE_MAX = 1000;
export interface ShareTemplates {
  document: { en: string; hi: string };
  reminder: { en: string; hi: string };
  /** To a distributor whose bill is missing in the month's GSTR-2B (Purchases > GSTR-2B). */
  gstr2b_missing: { en: string; hi: string };
}

/** `simple`: the spec's flat 18 % Tax checkbox (default); `gst`: regular registration, tax invoices; `composition`: bills of supply, no tax collected. */
export type CompanyTaxMode = 'simple' | 'gst' | 'composition';

/** POST /setCompanyDetails (managers). `id` must be the caller's company. */
export interface SetCompanyDetailsRequest {
  id: number;
  name: string;
  add1: string;
  add2?: string;
  mob1: string;
  mob2?: string;
  email: string;
  upiId?: string;
  /** Left out: the company keeps its current value (so clients that predate GST never change it). */
  tax_mode?: CompanyTaxMode;
  /** '' or null clears it (only in simple mode). */
  gstin?: string | null;
  /** '' or null: the default (the name's initials, else INV). */
  invoice_prefix?: string | null;
  /** Left out: kept. */
  gst_filing?: GstFiling;
  /** Left out: kept. */
  aato_above_5cr?: boolean;
  /** Left out: kept; '' clears the PIN. */
  pincode?: string;
  place?: string;
  ewaybill_threshold?: number;
  /** GSTR-3B's input tax credit only from purchases matched with the month's GSTR-2B (default false). */
  itc_from_matched_only?: boolean;
  /** Each left out: kept as it is. */
  bill_format?: BillFormat;
  doc_language?: Language;
  share_expiry_days?: number;
  /** '' for a template: back to the shipped default. Each kind's placeholders: TEMPLATE_PLACEHOLDERS. */
  share_templates?: Partial<Record<keyof ShareTemplates, Partial<{ en: string; hi: string }>>>;
  /** Left out: kept. 0-100 (up to 2 decimals). */
  staff_max_discount_percent?: number;
  /** Left out: kept. */
  walkin_credit?: WalkinCredit;
  /** Left out: kept. */
  staff_expenses?: boolean;
  /** Left out: kept. */
  require_register?: boolean;
}

export interface DoneReply {
  done: boolean;
  err?: string;
}

/** POST /manage/profile/edit/{id}/uploadProfileImage (multipart field `image`) and POST /updateProductImage/{id}. */
export interface UploadImageReply {
  fileName: string;
}

/** A row of GET /admin/companyList. */
export interface AdminCompanyRow {
  id: number;
  name: string;
  add: string;
  mob: string;
  email: string;
  manager: string | null;
  managerEmail: string | null;
  users: number;
}

/** GET /admin/companyList?pageNo=0&text= (page size 10). */
export interface AdminCompanyListReply {
  companyList: AdminCompanyRow[];
  noOfPages: number;
}

/** A user as the administration and the manager's user list show it (spec 001, section 3). */
export interface AdminUserRow {
  id: number;
  name: string;
  email: string;
  is_locked: boolean;
  position: Position;
  forceChange: boolean;
}

/** GET /admin/company/details/{id} */
export interface AdminCompanyDetailsReply {
  company: CompanyDetails | null;
  users: AdminUserRow[];
  error: string | null;
}

/** POST /admin/createCompany */
export interface CreateCompanyRequest {
  cName: string;
  cAdd: string;
  cMob: string;
  mName: string;
  mEmail: string;
}

/** The temporary manager password is shown once to the admin; the manager must change it at first login. */
export interface CreateCompanyReply extends SuccessMessageReply {
  companyId?: number;
  managerId?: number;
  managerPassword?: string;
}

/** POST /admin/user/update-password */
export interface AdminUpdatePasswordRequest {
  newPassword: string;
  email: string;
}

/** POST /users (manager adds a user to their own company). */
export interface CreateUserRequest {
  name: string;
  email: string;
  password: string;
  position: 'staff' | 'manager';
}

export interface CreateUserReply {
  success: boolean;
  id: number;
  message: string;
}

/** GET /users */
export interface UserListReply {
  users: AdminUserRow[];
}

/** identity.company.details request. */
export interface CompanyDetailsRequest {
  companyId: number;
}

/** identity.user.lookup request: by id or e-mail, always within a company unless the caller is identity itself. */
export interface UserLookupRequest {
  companyId: number;
  userId?: number;
  email?: string;
}

export interface UserLookupReply {
  user: (UserData & { email: string; is_locked: boolean }) | null;
}

/** GET /settings/public-address (any position) and the PUT reply (platform admin). */
export interface PublicAddressReply {
  /** What the admin set in Setting, or null. */
  public_url: string | null;
  /** BAHI_PUBLIC_URL of the running stack, or null. */
  env_url: string | null;
  /** What share links use: the setting, else BAHI_PUBLIC_URL, else null (the address the browser reached Bahi by). */
  effective: string | null;
  /** The address links use points at this PC only (localhost, 127.x, ::1): customers' phones cannot open it. */
  local_only: boolean;
}

/** True for an address only this PC reaches (localhost, 127.x, [::1], 0.0.0.0). */
export function isLocalOnlyAddress(url: string): boolean {
  try {
    const h = new URL(url).hostname.toLowerCase();
    return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '[::1]' || h === '0.0.0.0';
  } catch {
    return false;
  }
}

/**
 * The shop's public address as typed (PUT /settings/public-address): an http(s) site only, no
 * user, path, query or fragment, so a link is always `<origin>/s/<token>`. Empty clears it.
 * Returns the origin (no trailing slash), null for "clear", or the sentence of a 400.
 */
export function parsePublicAddress(raw: unknown): { url: string | null } | { problem: string } {
  const example = 'like https://shop.example.in';
  if (raw === null || raw === undefined) return { url: null };
  if (typeof raw !== 'string') return { problem: `The public address must be text, ${example}.` };
  const text = raw.trim();
  if (!text) return { url: null };
  if (text.length > 200) return { problem: 'The public address can be at most 200 characters.' };
  if (/[\s\\\u0000-\u001f\u007f]/.test(text)) return { problem: `The public address cannot contain spaces or backslashes; type it ${example}.` };
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { problem: `The public address must be a full web address, ${example}.` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { problem: 'The public address must start with https:// (or http://).' };
  if (u.username || u.password) return { problem: 'The public address cannot hold a user name or password.' };
  if (!u.hostname) return { problem: `The public address needs the site's name, ${example}.` };
  const afterHost = text.replace(/^[a-z]+:\/\/[^/?#]*/i, '');
  if (afterHost !== '' && afterHost !== '/') return { problem: `The public address is the site only, ${example}, without a path, ? or #.` };
  return { url: u.origin };
}
