import { BadRequestException } from '@nestjs/common';
import { amount, normaliseBillNo } from '@bahi/gst';
import { Decimal, isRealDate } from '@bahi/service-kit';

/**
 * GSTR-2B as downloaded from the GST portal (JSON), b2b section only:
 * `{ data: { gstin, rtnprd: "MMYYYY", docdata: { b2b: [{ ctin, trdnm, supfildt, supprd,
 * inv: [{ inum, typ, dt: "dd-mm-yyyy", val, pos, rev, itcavl, txval?, igst?, cgst?, sgst?, cess?,
 * items: [{ num, rt, txval, igst, cgst, sgst, cess }] }] }] } } }` — the structure India Compliance
 * reads (resilient-tech/india-compliance, gst_india/utils/gstr_2/gstr_2b.py and its test
 * files); see services/inventory/README.md "GSTR-2B".
 */
export interface PortalInvoice {
  gstin: string;
  supplier: string;
  bill_no: string;
  /** YYYY-MM-DD */
  bill_date: string;
  value: string;
  taxable: string;
  tax: string;
  itc_available: boolean;
}

/** At most this many supplier invoices in one upload. */
export const GSTR2B_MAX_INVOICES = 20000;
/** Taxable value and tax agree when within Rs 1 (rounding on either side). */
export const TOLERANCE = new Decimal(1);

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function money(v: unknown, what: string): Decimal {
  if (v === undefined || v === null || v === '') return new Decimal(0);
  try {
    return amount(v as string | number, what);
  } catch {
    throw new BadRequestException(`The GSTR-2B file has a ${what} that is not a number: '${String(v)}'.`);
  }
}

/** 'YYYY-MM' of the period and the parsed b2b invoices; 400 with a sentence for anything else. */
export function parseGstr2b(body: unknown, period: string, companyGstin: string | null): PortalInvoice[] {
  const root = isObj(body) && isObj(body.data) ? body.data : body;
  if (!isObj(root) || !isObj(root.docdata)) throw new BadRequestException('This is not a GSTR-2B JSON file from the GST portal: it has no data.docdata.');
  if (root.rtnprd !== undefined) {
    const [y, m] = period.split('-');
    if (String(root.rtnprd) !== `${m}${y}`) throw new BadRequestException(`This GSTR-2B is for the period ${String(root.rtnprd).slice(0, 2)}/${String(root.rtnprd).slice(2)}, not ${m}/${y}.`);
  }
  if (companyGstin && typeof root.gstin === 'string' && root.gstin.toUpperCase() !== companyGstin) {
    throw new BadRequestException(`This GSTR-2B belongs to GSTIN ${root.gstin}, not to this company (${companyGstin}).`);
  }
  const b2b = root.docdata.b2b ?? [];
  if (!Array.isArray(b2b)) throw new BadRequestException('docdata.b2b of the GSTR-2B file must be a list of suppliers.');
  const out: PortalInvoice[] = [];
  for (const sup of b2b) {
    if (!isObj(sup) || typeof sup.ctin !== 'string' || !/^[0-9A-Z]{15}$/.test(sup.ctin.toUpperCase())) throw new BadRequestException('Each supplier in the GSTR-2B file needs its 15-character GSTIN (ctin).');
    const gstin = sup.ctin.toUpperCase();
    if (!Array.isArray(sup.inv)) throw new BadRequestException(`Supplier ${gstin} in the GSTR-2B file has no list of invoices (inv).`);
    for (const inv of sup.inv) {
      if (!isObj(inv) || typeof inv.inum !== 'string' || !inv.inum.trim()) throw new BadRequestException(`An invoice of supplier ${gstin} has no number (inum).`);
      const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(String(inv.dt ?? ''));
      const date = m ? `${m[3]}-${m[2]}-${m[1]}` : '';
      if (!isRealDate(date)) throw new BadRequestException(`Invoice ${inv.inum} of ${gstin} has the date '${String(inv.dt)}'; the portal writes dd-mm-yyyy.`);
      const what = `invoice ${inv.inum} of ${gstin}`;
      const items = Array.isArray(inv.items) ? inv.items.filter(isObj) : [];
      // Invoice totals when the file has them, else the sum of its rate lines.
      const head = (k: string) => (inv[k] !== undefined ? money(inv[k], `${k} of ${what}`) : items.reduce((s, it) => s.plus(money(it[k], `${k} of ${what}`)), new Decimal(0)));
      const tax = head('igst').plus(head('cgst')).plus(head('sgst')).plus(head('cess'));
      out.push({
        gstin,
        supplier: typeof sup.trdnm === 'string' ? sup.trdnm : '',
        bill_no: inv.inum.trim(),
        bill_date: date,
        value: money(inv.val, `val of ${what}`).toFixed(2),
        taxable: head('txval').toFixed(2),
        tax: tax.toFixed(2),
        itc_available: inv.itcavl !== 'N',
      });
      if (out.length > GSTR2B_MAX_INVOICES) throw new BadRequestException(`The GSTR-2B file has more than ${GSTR2B_MAX_INVOICES} invoices; upload it a month at a time.`);
    }
  }
  return out;
}

/** A purchase as the matching reads it. */
export interface BookBill {
  purchaseId: number;
  distributorId: number;
  supplier: string;
  gstin: string;
  bill_no: string;
  bill_date: string;
  taxable: string;
  tax: string;
}

export interface FieldDiff {
  field: 'bill_date' | 'taxable' | 'tax';
  books: string;
  portal: string;
}

export interface MatchResult {
  matched: { books: BookBill; portal: PortalInvoice }[];
  differences: { books: BookBill; portal: PortalInvoice; fields: FieldDiff[] }[];
  missing_in_books: PortalInvoice[];
  missing_in_2b: BookBill[];
}

const key = (gstin: string, billNo: string) => `${gstin}|${normaliseBillNo(billNo)}`;

/**
 * Each 2B invoice finds the purchase with the same supplier GSTIN and bill number (normalised:
 * case, spaces, leading zeros, / and -); then the bill date must be the same and the taxable value
 * and the tax within Rs 1, else it is a difference naming the fields. `books` are the purchases
 * that could match (any date); those dated in the period (`inPeriod`) and left over are missing in 2B.
 */
export function matchGstr2b(portal: PortalInvoice[], books: BookBill[], inPeriod: (b: BookBill) => boolean): MatchResult {
  const byKey = new Map<string, BookBill[]>();
  for (const b of books) byKey.set(key(b.gstin, b.bill_no), [...(byKey.get(key(b.gstin, b.bill_no)) ?? []), b]);
  const used = new Set<number>();
  const r: MatchResult = { matched: [], differences: [], missing_in_books: [], missing_in_2b: [] };
  for (const p of portal) {
    const b = (byKey.get(key(p.gstin, p.bill_no)) ?? []).find((x) => !used.has(x.purchaseId));
    if (!b) {
      r.missing_in_books.push(p);
      continue;
    }
    used.add(b.purchaseId);
    const fields: FieldDiff[] = [];
    if (b.bill_date !== p.bill_date) fields.push({ field: 'bill_date', books: b.bill_date, portal: p.bill_date });
    for (const f of ['taxable', 'tax'] as const) {
      if (new Decimal(b[f]).minus(p[f]).abs().gt(TOLERANCE)) fields.push({ field: f, books: b[f], portal: p[f] });
    }
    if (fields.length) r.differences.push({ books: b, portal: p, fields });
    else r.matched.push({ books: b, portal: p });
  }
  r.missing_in_2b = books.filter((b) => !used.has(b.purchaseId) && inPeriod(b));
  return r;
}
