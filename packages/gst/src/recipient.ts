import { amount, AmountInput } from './amount';
import { GstError } from './errors';
import { parseState } from './states';

/** Rule 46(e): at or above this taxable value an unregistered buyer's name, address and state go on the invoice. */
export const RECIPIENT_DETAILS_FROM = '50000';
export const RECIPIENT_NAME_MAX = 100;
export const RECIPIENT_ADDRESS_MAX = 250;

/** A walk-in buyer's particulars as typed at the counter; `state` is the GST state code once parsed. */
export interface RecipientDetails {
  name: string;
  address: string;
  state: string;
}

const hasControl = (s: string) => /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);

/**
 * Reads `{ name, address, state }` as typed: each part optional ('' when absent), trimmed, at most
 * 100 / 250 characters, no control characters; the state a known one (code, name or short form),
 * stored as its code. Throws GstError with a sentence.
 */
export function parseRecipient(input: unknown): RecipientDetails {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new GstError('recipient must be { name, address, state }.');
  const extra = Object.keys(input).filter((k) => !['name', 'address', 'state'].includes(k));
  if (extra.length) throw new GstError(`recipient has an unknown field: ${extra.join(', ')}.`);
  const o = input as Record<string, unknown>;
  const text = (key: 'name' | 'address' | 'state', label: string, max: number): string => {
    const v = o[key];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw new GstError(`The buyer's ${label} must be text.`);
    const s = v.trim().replace(/\s+/g, ' ');
    if (s.length > max) throw new GstError(`The buyer's ${label} can be at most ${max} characters.`);
    if (hasControl(v.replace(/[\r\n\t]/g, ' '))) throw new GstError(`The buyer's ${label} cannot hold control characters.`);
    return s;
  };
  const name = text('name', 'name', RECIPIENT_NAME_MAX);
  const address = text('address', 'address', RECIPIENT_ADDRESS_MAX);
  const typed = text('state', 'state', 60);
  let state = '';
  if (typed) {
    try {
      state = parseState(typed);
    } catch (e) {
      throw e instanceof GstError ? new GstError(`The buyer's state: ${e.message}`) : e;
    }
  }
  return { name, address, state };
}

/**
 * Rule 46(e) (CGST Rules 2017, as amended by Notification 74/2018-CT): for an unregistered buyer
 * and a taxable value of Rs 50,000 or more, the parts of name, address and state still missing;
 * [] when nothing is (or the rule does not apply).
 */
export function missingRecipientDetails(taxable: AmountInput, registered: boolean, r: Partial<RecipientDetails>): ('name' | 'address' | 'state')[] {
  if (registered || amount(taxable, 'taxable value').lessThan(RECIPIENT_DETAILS_FROM)) return [];
  return (['name', 'address', 'state'] as const).filter((k) => !(r[k] ?? '').trim());
}

/** The sentence for a refused sale: "... needs the buyer's name and state ...". */
export function recipientDetailsSentence(taxable: string, missing: readonly string[], fix = 'Type them for the buyer and sell again.'): string {
  const list = missing.length > 1 ? `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}` : missing[0];
  return `The taxable value is Rs ${taxable}, Rs 50,000 or more, and the buyer has no GSTIN: the tax invoice needs the buyer's ${list} (Rule 46(e)). ${fix}`;
}
