import { GstError } from './errors';
import { stateByCode } from './states';

/**
 * GSTIN of a regular taxpayer (GSTN's format): 2-digit state code, the holder's PAN
 * (5 letters, 4 digits, 1 letter), an entity digit (1-9 then A-Z: the n-th registration of
 * that PAN in the state), 'Z' (default), and a check character over the first 14.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * GSTN's check character: Luhn mod 36 over the first 14 characters. Each character's value
 * (0-9 then A=10 ... Z=35) is multiplied by 1, 2, 1, 2, ... from the left; each product p
 * adds floor(p / 36) + p mod 36; the check value is (36 - sum mod 36) mod 36.
 */
export function gstinCheckChar(first14: string): string {
  const s = first14.trim().toUpperCase();
  if (!/^[0-9A-Z]{14}$/.test(s)) throw new GstError(`The check character is computed over 14 letters or digits; got '${first14}'.`);
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = ALPHABET.indexOf(s[i]) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return ALPHABET[(36 - (sum % 36)) % 36];
}

export type GstinPart = 'length' | 'state' | 'pan' | 'entity' | 'z' | 'check';

export type GstinResult =
  | { ok: true; gstin: string; stateCode: string; pan: string }
  | { ok: false; part: GstinPart; message: string };

const fail = (part: GstinPart, message: string): GstinResult => ({ ok: false, part, message });

/** Checks a GSTIN part by part and says which part is wrong. Spaces around and lower case are tolerated. */
export function validateGstin(input: string): GstinResult {
  const g = String(input ?? '').trim().toUpperCase();
  if (g.length !== 15) return fail('length', `A GSTIN has 15 characters; '${g}' has ${g.length}.`);

  const code = g.slice(0, 2);
  if (!/^\d{2}$/.test(code)) return fail('state', `A GSTIN starts with a two-digit state code; '${code}' is not one.`);
  const state = stateByCode(code);
  if (!state) return fail('state', `State code ${code} is not a GST state code.`);
  if (state.retired) return fail('state', `State code ${code} ${state.retired.reason}.`);

  const pan = g.slice(2, 12);
  if (!/^[A-Z]{5}\d{4}[A-Z]$/.test(pan)) {
    return fail('pan', `Characters 3 to 12 must be the holder's PAN (5 letters, 4 digits, 1 letter); '${pan}' is not.`);
  }
  if (!/^[1-9A-Z]$/.test(g[12])) return fail('entity', `The 13th character (entity number) must be 1-9 or A-Z; it is '${g[12]}'.`);
  if (g[13] !== 'Z') return fail('z', `The 14th character must be Z; it is '${g[13]}'.`);

  const expected = gstinCheckChar(g.slice(0, 14));
  if (g[14] !== expected) {
    return fail('check', `The check character (15th) is wrong: for ${g.slice(0, 14)} it should be '${expected}', not '${g[14]}'; the GSTIN is mistyped somewhere.`);
  }
  return { ok: true, gstin: g, stateCode: code, pan };
}
