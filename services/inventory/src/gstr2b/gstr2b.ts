import { BadRequestException } from '@nestjs/common';
import { amount, normaliseBillNo } from '@bahi/gst';
import { Decimal, isRealDate } from '@bahi/service-kit';

/**
 * GSTR-2B as downloaded from the GST portal (JSON):
 * `{ data: { gstin, rtnprd: "MMYYYY", docdata: { b2b: [{ ctin, trdnm, supfildt, supprd,
 * inv: [{ inum, typ, dt: "dd-mm-yyyy", val, pos, rev, itcavl, txval?, igst?, cgst?, sgst?, cess?,
 * items: [{ num, rt, txval, igst, cgst, sgst, cess }] }] }] } } }` — the structure India Compliance
 * reads (resilient-tech/india-compliance, gst_india/utils/gstr/gstr_2b.py and its test
 * files); see services/inventory/README.md "GSTR-2B". Also read (issue 31):
 * - `b2ba`: amended invoices, as b2b plus `oinum`/`oidt` (the invoice as first reported);
 * - `cdnr`: the suppliers' credit and debit notes, `nt: [{ ntnum, typ: "C" | "D", dt, val, ... items }]`;
 * - `cdnra`: amended notes, as cdnr plus `ontnum`/`ontdt`/`onttyp`.
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
  /** Only for an amendment (b2ba, cdnra): the section and the number and date first reported. */
  section?: 'b2ba' | 'cdnra';
  original_bill_no?: string;
  original_bill_date?: string;
}

/** A supplier's credit (C: goods returned, price cut) or debit (D) note in the 2B; bill_no/bill_date are the note's. */
export interface PortalNote extends PortalInvoice {
  note_type: 'C' | 'D';
}

export interface ParsedGstr2b {
  invoices: PortalInvoice[];
  notes: PortalNote[];
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

const ddmmyyyy = (v: unknown): string => {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(String(v ?? ''));
  return m ? `${m[3]}-${m[2]}-${m[1]}` : '';
};

type Section = 'b2b' | 'b2ba' | 'cdnr' | 'cdnra';

/** One section's documents: each supplier's `inv` (b2b, b2ba) or `nt` (cdnr, cdnra) list. */
function readSection(root: Record<string, unknown>, section: Section, count: () => number): (PortalInvoice | PortalNote)[] {
  const list = (root.docdata as Record<string, unknown>)[section] ?? [];
  if (!Array.isArray(list)) throw new BadRequestException(`docdata.${section} of the GSTR-2B file must be a list of suppliers.`);
  const notes = section === 'cdnr' || section === 'cdnra';
  const listKey = notes ? 'nt' : 'inv';
  const numKey = notes ? 'ntnum' : 'inum';
  const out: (PortalInvoice | PortalNote)[] = [];
  for (const sup of list) {
    if (!isObj(sup) || typeof sup.ctin !== 'string' || !/^[0-9A-Z]{15}$/.test(sup.ctin.toUpperCase())) throw new BadRequestException('Each supplier in the GSTR-2B file needs its 15-character GSTIN (ctin).');
    const gstin = sup.ctin.toUpperCase();
    const docs = sup[listKey];
    if (!Array.isArray(docs)) {
      throw new BadRequestException(notes ? `Supplier ${gstin} in the GSTR-2B file has no list of notes (nt) in ${section}.` : `Supplier ${gstin} in the GSTR-2B file has no list of invoices (inv).`);
    }
    for (const inv of docs) {
      const no = isObj(inv) ? inv[numKey] : undefined;
      if (!isObj(inv) || typeof no !== 'string' || !no.trim()) {
        throw new BadRequestException(notes ? `A note of supplier ${gstin} has no number (ntnum).` : `An invoice of supplier ${gstin} has no number (inum).`);
      }
      const date = ddmmyyyy(inv.dt);
      if (!isRealDate(date)) throw new BadRequestException(`${notes ? 'Note' : 'Invoice'} ${no} of ${gstin} has the date '${String(inv.dt)}'; the portal writes dd-mm-yyyy.`);
      const what = `${notes ? 'note' : 'invoice'} ${no} of ${gstin}`;
      const items = Array.isArray(inv.items) ? inv.items.filter(isObj) : [];
      // Totals when the file has them, else the sum of its rate lines.
      const head = (k: string) => (inv[k] !== undefined ? money(inv[k], `${k} of ${what}`) : items.reduce((s, it) => s.plus(money(it[k], `${k} of ${what}`)), new Decimal(0)));
      const tax = head('igst').plus(head('cgst')).plus(head('sgst')).plus(head('cess'));
      const doc: PortalInvoice = {
        gstin,
        supplier: typeof sup.trdnm === 'string' ? sup.trdnm : '',
        bill_no: no.trim(),
        bill_date: date,
        value: money(inv.val, `val of ${what}`).toFixed(2),
        taxable: head('txval').toFixed(2),
        tax: tax.toFixed(2),
        itc_available: inv.itcavl !== 'N',
      };
      if (section === 'b2ba' || section === 'cdnra') {
        const oNo = inv[section === 'b2ba' ? 'oinum' : 'ontnum'];
        if (typeof oNo !== 'string' || !oNo.trim()) throw new BadRequestException(`The amended ${what} in ${section} has no original number (${section === 'b2ba' ? 'oinum' : 'ontnum'}).`);
        Object.assign(doc, { section, original_bill_no: oNo.trim(), original_bill_date: ddmmyyyy(inv[section === 'b2ba' ? 'oidt' : 'ontdt']) });
      }
      if (notes) {
        // India Compliance reads the note type from `typ` (C/D); some files name it `ntty`.
        const t = String(inv.typ ?? inv.ntty ?? '').toUpperCase();
        if (t !== 'C' && t !== 'D') throw new BadRequestException(`The ${what} has the type '${String(inv.typ ?? inv.ntty ?? '')}'; a note is C (credit) or D (debit).`);
        out.push({ ...doc, note_type: t });
      } else out.push(doc);
      if (count() + out.length > GSTR2B_MAX_INVOICES) throw new BadRequestException(`The GSTR-2B file has more than ${GSTR2B_MAX_INVOICES} invoices; upload it a month at a time.`);
    }
  }
  return out;
}

/** An amendment replaces the document it amends when both are in the file. */
function amended<T extends PortalInvoice>(originals: T[], amendments: T[]): T[] {
  const replaced = new Set(amendments.map((a) => key(a.gstin, a.original_bill_no!)));
  return [...originals.filter((o) => !replaced.has(key(o.gstin, o.bill_no))), ...amendments];
}

/** The period's invoices (b2b, b2ba) and notes (cdnr, cdnra); 400 with a sentence for anything else. */
export function parseGstr2b(body: unknown, period: string, companyGstin: string | null): ParsedGstr2b {
  const root = isObj(body) && isObj(body.data) ? body.data : body;
  if (!isObj(root) || !isObj(root.docdata)) throw new BadRequestException('This is not a GSTR-2B JSON file from the GST portal: it has no data.docdata.');
  if (root.rtnprd !== undefined) {
    const [y, m] = period.split('-');
    if (String(root.rtnprd) !== `${m}${y}`) throw new BadRequestException(`This GSTR-2B is for the period ${String(root.rtnprd).slice(0, 2)}/${String(root.rtnprd).slice(2)}, not ${m}/${y}.`);
  }
  if (companyGstin && typeof root.gstin === 'string' && root.gstin.toUpperCase() !== companyGstin) {
    throw new BadRequestException(`This GSTR-2B belongs to GSTIN ${root.gstin}, not to this company (${companyGstin}).`);
  }
  let n = 0;
  const count = () => n;
  const read = <T>(section: Section): T[] => {
    const r = readSection(root, section, count);
    n += r.length;
    return r as T[];
  };
  const b2b = read<PortalInvoice>('b2b');
  const b2ba = read<PortalInvoice>('b2ba');
  const cdnr = read<PortalNote>('cdnr');
  const cdnra = read<PortalNote>('cdnra');
  return { invoices: amended(b2b, b2ba), notes: amended(cdnr, cdnra) };
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

/** A purchase return (debit note) as the matching reads it: the note's number and date, the purchase it returns goods of. */
export interface BookNote extends BookBill {
  debitNoteId: number;
  /** The purchase's own bill number. */
  purchase_bill_no: string;
}

export interface FieldDiff {
  field: 'bill_date' | 'taxable' | 'tax';
  books: string;
  portal: string;
}

export interface MatchResult<B extends BookBill = BookBill, P extends PortalInvoice = PortalInvoice> {
  matched: { books: B; portal: P }[];
  differences: { books: B; portal: P; fields: FieldDiff[] }[];
  missing_in_books: P[];
  missing_in_2b: B[];
}

const key = (gstin: string, billNo: string) => `${gstin}|${normaliseBillNo(billNo)}`;

/**
 * Each 2B document finds the book entry with the same supplier GSTIN and number (normalised:
 * case, spaces, leading zeros, / and -; an amendment also by its original number); then the
 * date must be the same and the taxable value and the tax within Rs 1, else it is a difference
 * naming the fields. `books` are the entries that could match (any date); those dated in the
 * period (`inPeriod`) and left over are missing in 2B. `idOf` tells book entries apart;
 * `numbersOf` gives the numbers an entry may be reported under (a bill: its number).
 */
export function matchGstr2b<B extends BookBill, P extends PortalInvoice>(
  portal: P[],
  books: B[],
  inPeriod: (b: B) => boolean,
  idOf: (b: B) => number = (b) => b.purchaseId,
  numbersOf: (b: B) => string[] = (b) => [b.bill_no],
): MatchResult<B, P> {
  const byKey = new Map<string, B[]>();
  for (const b of books) for (const no of new Set(numbersOf(b).filter(Boolean).map((x) => key(b.gstin, x)))) byKey.set(no, [...(byKey.get(no) ?? []), b]);
  const used = new Set<number>();
  const r: MatchResult<B, P> = { matched: [], differences: [], missing_in_books: [], missing_in_2b: [] };
  for (const p of portal) {
    const candidates = [p.bill_no, ...(p.original_bill_no ? [p.original_bill_no] : [])];
    let b: B | undefined;
    for (const no of candidates) {
      b = (byKey.get(key(p.gstin, no)) ?? []).find((x) => !used.has(idOf(x)));
      if (b) break;
    }
    if (!b) {
      r.missing_in_books.push(p);
      continue;
    }
    used.add(idOf(b));
    const fields: FieldDiff[] = [];
    if (b.bill_date !== p.bill_date) fields.push({ field: 'bill_date', books: b.bill_date, portal: p.bill_date });
    for (const f of ['taxable', 'tax'] as const) {
      if (new Decimal(b[f]).minus(p[f]).abs().gt(TOLERANCE)) fields.push({ field: f, books: b[f], portal: p[f] });
    }
    if (fields.length) r.differences.push({ books: b, portal: p, fields });
    else r.matched.push({ books: b, portal: p });
  }
  r.missing_in_2b = books.filter((b) => !used.has(idOf(b)) && inPeriod(b));
  return r;
}
