import type { CreditNoteDetails, Customer, DebitNoteDetails, Distributor, PaymentDocument, PaymentLine, PurchaseDocument, SaleDocument } from '@bahi/contracts';
import { Money, type Decimal } from '@bahi/service-kit';

/**
 * Bahi's documents as Tally vouchers (no I/O: the gatherer fetches, the writer writes XML).
 * Each entry's `dr` is signed: + a debit, - a credit; a voucher's entries sum to zero exactly,
 * and every money figure is a Decimal made from the owners' decimal strings.
 */
export type VoucherType = 'Sales' | 'Purchase' | 'Receipt' | 'Payment' | 'Credit Note' | 'Debit Note';
export interface TallyEntry {
  ledger: string;
  dr: Decimal;
}
export interface TallyVoucher {
  type: VoucherType;
  /** YYYY-MM-DD */
  date: string;
  number: string;
  party: string;
  narration: string;
  cancelled: boolean;
  entries: TallyEntry[];
}
/** A party ledger master (Sundry Debtors or Creditors). */
export interface TallyParty {
  name: string;
  group: 'Sundry Debtors' | 'Sundry Creditors';
  gstin: string | null;
  state: string;
  country: string;
  pincode: string;
  address: string[];
}

const ZERO = Money.money(0);
/** HTTP-number figures of notes (display numbers with two places) read back as exact decimals. */
const dec = (v: string | number | null | undefined): Decimal => Money.round2(Money.money(v === null || v === undefined || v === '' ? 0 : typeof v === 'number' ? String(v) : v));

/** The names the export writes: the company's mapping (every key) and how parties are named. */
export interface Naming {
  ledgers: Record<string, string>;
  customer(c: Customer | null): string;
  distributor(id: number, fallback: string): string;
}

function ledgerOf(n: Naming, key: string): string {
  const name = n.ledgers[key];
  if (!name) throw new Error(`No Tally ledger for ${key}`);
  return name;
}

/** Tally's rate keys are the canonical rate strings ('18', '0.25'): a stored '18.00' is the 18 % ledger. */
const rateKey = (rate: string | number) => Money.money(rate).toFixed();

/**
 * Splits `total` over rates in proportion to `weights`, to the paisa, the last rate taking the
 * remainder, so the parts add up to `total` exactly (notes carry their taxable total, not per rate).
 */
export function splitByRate(total: Decimal, weights: Map<string, Decimal>): Map<string, Decimal> {
  const out = new Map<string, Decimal>();
  const rates = [...weights.keys()];
  const sum = Money.add(...weights.values());
  let left = total;
  rates.forEach((r, i) => {
    const part = i === rates.length - 1 || sum.isZero() ? left : Money.round2(total.times(weights.get(r)!).dividedBy(sum));
    out.set(r, part);
    left = left.minus(part);
  });
  return out;
}

function push(entries: TallyEntry[], ledger: string, dr: Decimal) {
  if (dr.isZero()) return;
  const same = entries.find((e) => e.ledger === ledger);
  if (same) same.dr = same.dr.plus(dr);
  else entries.push({ ledger, dr });
}

/** Heads of tax on one side: output (sales) or input (purchases). */
function taxEntries(entries: TallyEntry[], n: Naming, side: 'output' | 'input', sign: 1 | -1, t: { cgst: Decimal; sgst: Decimal; igst: Decimal }) {
  push(entries, ledgerOf(n, `${side}_cgst`), t.cgst.times(sign));
  push(entries, ledgerOf(n, `${side}_sgst`), t.sgst.times(sign));
  push(entries, ledgerOf(n, `${side}_igst`), t.igst.times(sign));
}

/** The money tendered, by mode: the recorded tenders, or `paid` in cash when none were recorded. */
function tenders(payments: PaymentLine[] | null | undefined, paid: Decimal): { mode: string; amount: Decimal; ref?: string }[] {
  if (payments && payments.length) return payments.map((p) => ({ mode: p.mode, amount: dec(p.amount), ...(p.ref ? { ref: p.ref } : {}) })).filter((p) => !p.amount.isZero());
  return paid.isZero() ? [] : [{ mode: 'cash', amount: paid }];
}

/** One Receipt (money in) or Payment (money out) voucher per tender, against the party. */
function moneyVouchers(n: Naming, type: 'Receipt' | 'Payment', base: { date: string; number: string; party: string; narration: string }, list: { mode: string; amount: Decimal; ref?: string }[]): TallyVoucher[] {
  return list.map((t, i) => {
    const modeLedger = ledgerOf(n, t.mode);
    const sign = type === 'Receipt' ? 1 : -1;
    return {
      type,
      date: base.date,
      number: list.length > 1 ? `${base.number}/${i + 1}` : base.number,
      party: base.party,
      narration: `${base.narration}${t.ref ? ` (ref ${t.ref})` : ''}`,
      cancelled: false,
      entries: [
        { ledger: modeLedger, dr: t.amount.times(sign) },
        { ledger: base.party, dr: t.amount.times(-sign) },
      ],
    };
  });
}

/** A bill: the Sales voucher (cancelled: no entries, ISCANCELLED) and a Receipt per tender paid at the counter. */
export function saleVouchers(s: SaleDocument, n: Naming): TallyVoucher[] {
  const g = s.gst ?? null;
  const number = g?.invoice_no || String(s.sale_id);
  const party = n.customer(s.customer);
  const narration = `Bahi bill ${s.sale_id}`;
  if (s.cancelled) return [{ type: 'Sales', date: s.date, number, party, narration: `${narration} cancelled on ${s.cancelled.date}: ${s.cancelled.reason}`, cancelled: true, entries: [] }];
  const entries: TallyEntry[] = [];
  let amount: Decimal;
  if (g && g.tax_mode === 'gst') {
    amount = dec(g.invoice_value);
    push(entries, party, amount);
    for (const l of g.lines) push(entries, ledgerOf(n, `sales_${rateKey(l.gst_rate)}`), dec(l.taxable_value).neg());
    taxEntries(entries, n, 'output', -1, { cgst: dec(g.cgst_total), sgst: dec(g.sgst_total), igst: dec(g.igst_total) });
    push(entries, ledgerOf(n, 'round_off'), dec(g.round_off).neg());
  } else {
    // Simple mode and composition: no tax ledger; the bill's whole value is the sale (README).
    amount = g ? dec(g.invoice_value) : Money.add(s.subtotal, s.tax, s.shipping).minus(Money.money(s.summery_discount));
    push(entries, party, amount);
    push(entries, ledgerOf(n, 'sales'), amount.neg());
  }
  const out: TallyVoucher[] = [{ type: 'Sales', date: s.date, number, party, narration, cancelled: false, entries }];
  return out.concat(moneyVouchers(n, 'Receipt', { date: s.date, number: `${number}-R`, party, narration: `Paid at the counter on ${narration}` }, tenders(s.payments, dec(s.paid))));
}

/** Rates of a document's lines by sl_no, weighted by the credited (debited) value. */
function noteWeights(lines: { sl_no?: number; value: number }[], rateOf: Map<number, string>): Map<string, Decimal> {
  const w = new Map<string, Decimal>();
  for (const l of lines) {
    const r = rateKey(rateOf.get(l.sl_no ?? -1) ?? '0');
    w.set(r, (w.get(r) ?? ZERO).plus(dec(l.value)));
  }
  return w;
}

/** A credit note (goods back from a customer): Sales and output tax debited, the party credited; a refund is a Payment. */
export function creditNoteVouchers(c: CreditNoteDetails, sale: SaleDocument | null, n: Naming): TallyVoucher[] {
  const party = n.customer(c.walkIn ? null : c.customer);
  const amount = dec(c.amount);
  const entries: TallyEntry[] = [];
  push(entries, party, amount.neg());
  const g = c.gst;
  if (g && g.tax_mode === 'gst') {
    const rates = new Map((sale?.gst?.lines ?? []).map((l) => [l.sl_no, l.gst_rate]));
    for (const [r, v] of splitByRate(dec(g.taxable_total), noteWeights(c.lines, rates))) push(entries, ledgerOf(n, `sales_${r}`), v);
    taxEntries(entries, n, 'output', 1, { cgst: dec(g.cgst_total), sgst: dec(g.sgst_total), igst: dec(g.igst_total) });
    push(entries, ledgerOf(n, 'round_off'), dec(g.round_off));
  } else push(entries, ledgerOf(n, 'sales'), amount);
  const narration = `Goods returned on bill ${c.saleId}${c.reason ? `: ${c.reason}` : ''}`;
  const out: TallyVoucher[] = [{ type: 'Credit Note', date: c.date, number: c.credit_note_no, party, narration, cancelled: false, entries }];
  return out.concat(moneyVouchers(n, 'Payment', { date: c.date, number: `${c.credit_note_no}-P`, party, narration: `Refund on ${c.credit_note_no}` }, tenders(null, dec(c.refund))));
}

/** A purchase: the goods and input tax debited, the distributor credited; paid at the checkout is a Payment per tender. */
export function purchaseVouchers(p: PurchaseDocument, n: Naming): TallyVoucher[] {
  const party = n.distributor(p.distributorId, p.distributorName);
  const amount = dec(p.amount);
  const entries: TallyEntry[] = [];
  push(entries, party, amount.neg());
  const g = p.gst;
  if (g) {
    let goods = ZERO;
    for (const l of g.lines) {
      push(entries, ledgerOf(n, `purchase_${rateKey(l.gst_rate)}`), dec(l.taxable_value));
      goods = goods.plus(dec(l.taxable_value));
    }
    const t = { cgst: dec(g.cgst_total), sgst: dec(g.sgst_total), igst: dec(g.igst_total) };
    taxEntries(entries, n, 'input', 1, t);
    // What the distributor's bill adds beyond taxable value and tax (its rounding).
    push(entries, ledgerOf(n, 'round_off'), amount.minus(goods).minus(t.cgst).minus(t.sgst).minus(t.igst));
  } else push(entries, ledgerOf(n, 'purchase'), amount);
  const number = p.bill_no || String(p.purchaseId);
  const narration = `Bahi purchase ${p.purchaseId}${p.bill_no ? `, bill ${p.bill_no}` : ''}`;
  const out: TallyVoucher[] = [{ type: 'Purchase', date: p.date, number, party, narration, cancelled: false, entries }];
  return out.concat(moneyVouchers(n, 'Payment', { date: p.date, number: `P${p.purchaseId}-P`, party, narration: `Paid on ${narration}` }, tenders(p.payments, dec(p.paid))));
}

/** A debit note (goods back to a distributor): the party debited, purchases and input tax credited; money back is a Receipt. */
export function debitNoteVouchers(d: DebitNoteDetails, purchase: PurchaseDocument | null, n: Naming): TallyVoucher[] {
  const party = n.distributor(d.distributor_id, d.name);
  const amount = dec(d.amount);
  const entries: TallyEntry[] = [];
  push(entries, party, amount);
  const g = d.gst;
  if (g) {
    const rates = new Map((purchase?.gst?.lines ?? []).map((l) => [l.sl_no, l.gst_rate]));
    for (const [r, v] of splitByRate(dec(g.taxable_total), noteWeights(d.lines, rates))) push(entries, ledgerOf(n, `purchase_${r}`), v.neg());
    const t = { cgst: dec(g.cgst_total), sgst: dec(g.sgst_total), igst: dec(g.igst_total) };
    taxEntries(entries, n, 'input', -1, t);
    push(entries, ledgerOf(n, 'round_off'), amount.minus(dec(g.taxable_total)).minus(t.cgst).minus(t.sgst).minus(t.igst).neg());
  } else push(entries, ledgerOf(n, 'purchase'), amount.neg());
  const narration = `Goods returned on purchase ${d.purchaseId}${d.reason ? `: ${d.reason}` : ''}`;
  const out: TallyVoucher[] = [{ type: 'Debit Note', date: d.date, number: d.debit_note_no, party, narration, cancelled: false, entries }];
  return out.concat(moneyVouchers(n, 'Receipt', { date: d.date, number: `${d.debit_note_no}-R`, party, narration: `Refund on ${d.debit_note_no}` }, tenders(null, dec(d.refund))));
}

/** A payment received (Receipt) or given (Payment): one voucher, one entry per tender. */
export function paymentVoucher(p: PaymentDocument, party: string, n: Naming): TallyVoucher {
  const inward = p.partyKind === 'customer';
  const sign = inward ? 1 : -1;
  const entries: TallyEntry[] = [];
  const list = tenders(p.payments, dec(p.amount));
  for (const t of list) push(entries, ledgerOf(n, t.mode), t.amount.times(sign));
  push(entries, party, Money.add(...list.map((t) => t.amount)).times(-sign));
  const refs = list.flatMap((t) => (t.ref ? [t.ref] : []));
  return { type: inward ? 'Receipt' : 'Payment', date: p.date, number: `PAY-${p.paymentId}`, party, narration: `Bahi payment ${p.paymentId}${refs.length ? ` (ref ${refs.join(', ')})` : ''}`, cancelled: false, entries };
}

/** An expense (as the read model keeps its latest version; amounts in paise): a Payment, the expense ledger debited, each tender credited. */
export interface ExpenseRow {
  expenseId: number;
  date: string;
  category: string;
  note: string;
  payments: { mode: string; amount: number }[];
}
export function expenseVoucher(e: ExpenseRow, ledger: string, n: Naming): TallyVoucher {
  const entries: TallyEntry[] = [];
  const total = Money.add(...e.payments.map((p) => Money.fromPaise(p.amount)));
  push(entries, ledger, total);
  for (const p of e.payments) push(entries, ledgerOf(n, p.mode), Money.fromPaise(p.amount).neg());
  return { type: 'Payment', date: e.date, number: `EXP-${e.expenseId}`, party: ledger, narration: `Bahi expense ${e.expenseId} (${e.category})${e.note ? `: ${e.note}` : ''}`, cancelled: false, entries };
}

/** Debits less credits: zero for a balanced voucher. */
export const imbalance = (v: TallyVoucher): Decimal => Money.add(...v.entries.map((e) => e.dr));

export function customerParty(c: Customer, name: string): TallyParty {
  return { name, group: 'Sundry Debtors', gstin: c.gstin || null, state: c.state ?? '', country: c.country || 'India', pincode: c.postal_code ?? '', address: [c.address_line_1, c.address_line_2, c.city_or_district].filter(Boolean) };
}
export function distributorParty(d: Distributor, name: string): TallyParty {
  return { name, group: 'Sundry Creditors', gstin: d.gstin || null, state: d.state ?? '', country: d.country || 'India', pincode: d.postal_code ?? '', address: [d.address_line_1, d.address_line_2, d.city_or_district].filter(Boolean) };
}
