/**
 * Unicode's bidi embeddings, overrides and isolates: LRE, RLE, PDF, LRO, RLO (U+202A-202E) and
 * LRI, RLI, FSI, PDI (U+2066-2069). Each one reorders everything after it up to its end or the
 * line's, so a name holding one reverses the rest of a printed bill line or a WhatsApp message
 * ("Trojan Source", CVE-2021-42574). The marks LRM, RLM (U+200E/200F) and ALM (U+061C) are kept:
 * they are invisible letters that only settle the direction of the punctuation beside them,
 * reorder nothing beyond it, and Urdu and Sindhi names written in Arabic script use them.
 */
export const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const ALL_BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/** The text without bidi control characters; every other character (Devanagari, Urdu, emoji) stays. */
export function stripBidi(s: string): string {
  return s.replace(ALL_BIDI_CONTROLS, '');
}

/** Fields compared byte for byte and never shown: a password keeps whatever it was typed with. */
const KEEP_AS_TYPED = /password/i;

/**
 * Strips bidi controls from every string of a parsed body or message, in place (nested objects
 * and lists too, 32 levels deep like listProblem), except password fields. Returns the value
 * (a bare string comes back cleaned).
 */
export function stripBidiDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return stripBidi(value) as T;
  if (!value || typeof value !== 'object' || depth > 32) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = stripBidiDeep(value[i], depth + 1);
    return value;
  }
  if (Buffer.isBuffer(value) || value instanceof Date) return value;
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (KEEP_AS_TYPED.test(k)) continue;
    const v = o[k];
    if (typeof v === 'string') {
      if (BIDI_CONTROL.test(v)) o[k] = stripBidi(v);
    } else if (v && typeof v === 'object') stripBidiDeep(v, depth + 1);
  }
  return value;
}
