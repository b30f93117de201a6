import { GstError } from './errors';
import { parseRate } from './rates';

/** One step of a product's rate history: `rate` (percent) is in force from `from` (YYYY-MM-DD, IST) until the next step. */
export interface RateFrom {
  rate: string;
  from: string;
}

/** GST began on 1 July 2017: no rate can be in force before it. */
export const GST_START = '2017-07-01';
/** Steps a product may keep (rates have changed a handful of times since 2017). */
export const MAX_RATE_STEPS = 24;

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const isIsoDate = (s: unknown): s is string => {
  if (typeof s !== 'string') return false;
  const m = ISO.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
};

/**
 * Reads a rate history as typed (`[{ rate: 12, from: '2017-07-01' }, { rate: 5, from: '2025-09-22' }]`):
 * GST rates only, real dates from 1 July 2017, in strictly increasing order, no step repeating the
 * rate before it, and a rate in force on `today` (so the product's `tax` is defined). Throws
 * GstError with a sentence naming the step.
 */
export function parseRates(input: unknown, today: string): RateFrom[] {
  if (!Array.isArray(input)) throw new GstError('rates must be a list of { rate, from } steps.');
  if (input.length === 0) throw new GstError('rates needs at least one { rate, from } step.');
  if (input.length > MAX_RATE_STEPS) throw new GstError(`rates can hold at most ${MAX_RATE_STEPS} steps.`);
  const out: RateFrom[] = [];
  input.forEach((step: unknown, i) => {
    const n = `Rate step ${i + 1}`;
    if (!step || typeof step !== 'object' || Array.isArray(step)) throw new GstError(`${n} must be { rate, from }.`);
    const extra = Object.keys(step).filter((k) => k !== 'rate' && k !== 'from');
    if (extra.length) throw new GstError(`${n} has an unknown field: ${extra.join(', ')}.`);
    const { rate, from } = step as { rate?: unknown; from?: unknown };
    if (rate === undefined || rate === null || rate === '') throw new GstError(`${n} needs a rate.`);
    if (typeof rate !== 'number' && typeof rate !== 'string') throw new GstError(`${n}: the rate must be a number.`);
    let r: string;
    try {
      r = parseRate(rate).toFixed();
    } catch (e) {
      throw e instanceof GstError ? new GstError(`${n}: ${e.message}`) : e;
    }
    if (!isIsoDate(from)) throw new GstError(`${n}: from must be a real date written YYYY-MM-DD.`);
    if (from < GST_START) throw new GstError(`${n}: GST began on ${GST_START}; no rate can start on ${from}.`);
    const prev = out[out.length - 1];
    if (prev && from <= prev.from) throw new GstError(`${n} starts on ${from}, not after the step before it (${prev.from}); list the steps in date order.`);
    if (prev && r === prev.rate) throw new GstError(`${n} repeats the rate of the step before it (${r} %); leave it out.`);
    out.push({ rate: r, from });
  });
  if (!isIsoDate(today)) throw new GstError(`'${String(today)}' is not a date written YYYY-MM-DD.`);
  if (out[0]!.from > today) throw new GstError(`The first rate starts on ${out[0]!.from}, after today (${today}): a product needs a rate in force today.`);
  return out;
}

/** The rate in force on `date` (YYYY-MM-DD, a calendar day in India): the last step starting on or before it; null before the first. */
export function rateOn(rates: readonly RateFrom[], date: string): string | null {
  if (!isIsoDate(date)) throw new GstError(`'${String(date)}' is not a date written YYYY-MM-DD.`);
  let found: string | null = null;
  for (const step of rates) {
    if (step.from > date) break;
    found = step.rate;
  }
  return found;
}
