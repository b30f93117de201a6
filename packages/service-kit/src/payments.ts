import { PAY_MODE_LABELS, PAY_MODES, PAY_REF_MAX, type PaymentLine, type PayMode } from '@bahi/contracts';
import { Limits } from './limits';
import { money, toMoneyString, type MoneyInput } from './money';

/** A refused `payments` list; the message is the shopkeeper's sentence (callers answer 400). */
export class PaymentsError extends Error {}

const MAX_LINES = 10;
const rs = (d: MoneyInput) => money(d).toFixed(2);

/**
 * The one reading of a money call's `payments: [{ mode, amount, ref? }]` (sales, purchases, dues,
 * returns). Absent (undefined/null): the whole `total` is cash, as the spec's callers send it.
 * Otherwise each line needs a known mode, an amount above 0 with at most 2 decimals and a ref of
 * at most 40 characters, and the lines must add up to `total` exactly. `field` names the call's
 * own amount field in the sentence (paid, amount, refund). Lines of one mode stay apart (two UPI
 * references are two tenders).
 */
export function parsePayments(raw: unknown, total: MoneyInput, field: string): PaymentLine[] {
  const want = money(total);
  if (raw === undefined || raw === null) return want.isZero() ? [] : [{ mode: 'cash', amount: toMoneyString(want) }];
  if (!Array.isArray(raw)) throw new PaymentsError('payments must be a list of tenders, each with mode, amount and ref.');
  if (raw.length > MAX_LINES) throw new PaymentsError(`A payment can be split into at most ${MAX_LINES} parts.`);
  const out: PaymentLine[] = raw.map((p: unknown, i) => {
    const n = `Payment ${i + 1}`;
    if (!p || typeof p !== 'object' || Array.isArray(p)) throw new PaymentsError(`${n} must be a tender with mode, amount and ref.`);
    const { mode, amount, ref } = p as Record<string, unknown>;
    if (typeof mode !== 'string' || !(PAY_MODES as readonly string[]).includes(mode)) {
      throw new PaymentsError(`${n}: the mode must be one of ${PAY_MODES.map((m) => PAY_MODE_LABELS[m]).join(', ')} (${PAY_MODES.join(', ')}).`);
    }
    if ((typeof amount !== 'string' && typeof amount !== 'number') || amount === '') throw new PaymentsError(`${n}: give the amount in rupees.`);
    let d;
    try {
      d = money(amount);
    } catch {
      throw new PaymentsError(`${n}: the amount must be a number of rupees.`);
    }
    if (d.lte(0)) throw new PaymentsError(`${n}: the amount must be more than 0.`);
    if (d.decimalPlaces() > 2) throw new PaymentsError(`${n}: the amount can have at most 2 decimals (paise).`);
    if (d.greaterThan(Limits.maxAmount)) throw new PaymentsError(`${n}: the amount is too large.`);
    let r: string | undefined;
    if (ref !== undefined && ref !== null && ref !== '') {
      if (typeof ref !== 'string') throw new PaymentsError(`${n}: the reference must be text.`);
      r = ref.trim();
      if (r.length > PAY_REF_MAX) throw new PaymentsError(`${n}: the reference (UPI reference, cheque number) can be at most ${PAY_REF_MAX} characters.`);
      if (/[\u0000-\u001f\u007f]/.test(r)) throw new PaymentsError(`${n}: the reference cannot hold control characters.`);
    }
    return { mode: mode as PayMode, amount: toMoneyString(d), ...(r ? { ref: r } : {}) };
  });
  const sum = out.reduce((s, p) => s.plus(money(p.amount)), money(0));
  if (!sum.eq(want)) {
    throw new PaymentsError(`The payments add up to Rs ${rs(sum)} but ${field} is Rs ${rs(want)}; they must be equal.`);
  }
  return out;
}

/** The receipt's one-word type: the mode's name, or the names joined ("Cash + UPI"); Cash when none. */
export function paymentsLabel(payments: readonly PaymentLine[] | undefined | null): string {
  const modes = [...new Set((payments ?? []).map((p) => p.mode))];
  return modes.length ? modes.map((m) => PAY_MODE_LABELS[m]).join(' + ') : 'Cash';
}
