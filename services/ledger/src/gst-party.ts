import { BadRequestException } from '@nestjs/common';
import { GstError, parseState, partyPincodeError, stateName, validateGstin } from '@bahi/gst';

/** A party's GSTIN and state as stored: `state` is the 2-digit GST code when it is a known state, else the text as typed. */
export interface StoredPartyGst {
  gstin: string | null;
  state: string;
}

/** How a stored state reads back: the name and code of a known state, the text itself otherwise. */
export interface ReadState {
  state: string;
  state_code: string | null;
}

/**
 * Reads a stored state. Parsed on read (not migrated), so rows saved before GST mode as 'MH',
 * 'Maharashtra' or free text read back the same way as rows saved as '27'.
 */
export function readState(stored: string | null | undefined): ReadState {
  const raw = (stored ?? '').trim();
  if (!raw) return { state: '', state_code: null };
  try {
    const code = parseState(raw);
    return { state: stateName(code), state_code: code };
  } catch {
    return { state: raw, state_code: null };
  }
}

/** The GST fields every customer/distributor reply carries (additive to the spec's shape). */
export function partyGst(stored: { state?: string | null; gstin?: string | null }): ReadState & { gstin: string | null; b2b: boolean } {
  const gstin = stored.gstin || null;
  return { ...readState(stored.state), gstin, b2b: gstin !== null };
}

/**
 * Checks a party's GSTIN and state as sent by a form. The spec's `state` is free text, so a
 * state that is not an Indian state is kept as typed (old clients, foreign suppliers); a GSTIN
 * needs a known state and the same one its first two digits name. `gstin` undefined keeps
 * `current` (old clients don't send it); '' or null clears it. Throws 400 with a sentence.
 */
export function checkPartyGst(who: 'customer' | 'distributor', input: { state: string; gstin?: string | null }, current: string | null = null): StoredPartyGst {
  let gstin = current;
  let gstinState: string | null = current ? current.slice(0, 2) : null;
  if (input.gstin !== undefined) {
    const typed = (input.gstin ?? '').trim();
    if (!typed) {
      gstin = null;
      gstinState = null;
    } else {
      const g = validateGstin(typed);
      if (!g.ok) throw new BadRequestException(`GSTIN: ${g.message}`);
      gstin = g.gstin;
      gstinState = g.stateCode;
    }
  }
  let code: string | null = null;
  try {
    code = parseState(input.state);
  } catch (err) {
    if (!(err instanceof GstError)) throw err;
    if (gstin) throw new BadRequestException(`A ${who} with a GSTIN needs an Indian state: ${err.message}`);
  }
  if (gstin && gstinState && code !== gstinState) {
    throw new BadRequestException(
      `The GSTIN ${gstin} is registered in ${stateName(gstinState)} (${gstinState}) but the state given is ${stateName(code!)} (${code}); correct the state or the GSTIN.`,
    );
  }
  return { gstin, state: code ?? input.state.trim() };
}

/**
 * A new party's state when the form sent none (issue 32): a valid GSTIN's state; else, in GST or
 * composition mode, the company's own state (an unnoticed default decides CGST/SGST vs IGST).
 * Simple mode keeps the spec's rule (state is required). Returns the body to validate.
 */
export function withDefaultState(body: unknown, company: { tax_mode?: string | null; state_code?: string | null } | null): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b = body as Record<string, unknown>;
  if (typeof b.state === 'string' ? b.state.trim() : b.state !== undefined && b.state !== null) return body;
  const g = typeof b.gstin === 'string' && b.gstin.trim() ? validateGstin(b.gstin) : null;
  if (g?.ok) return { ...b, state: g.stateCode };
  const mode = company?.tax_mode ?? 'simple';
  if (mode !== 'simple' && company?.state_code) return { ...b, state: company.state_code };
  return body;
}

/** The company fields the party rules read (identity's company details). */
export type PartyCompany = { tax_mode?: string | null; state_code?: string | null } | null;

/** GST mode: a party in India needs a 6-digit PIN (@bahi/gst partyPincodeError); 400 with its sentence. Simple mode keeps the spec's numeric zip. */
export function checkPartyPin(who: 'customer' | 'distributor', party: { country?: string | null; postal_code?: string | null }, company: PartyCompany): void {
  const err = partyPincodeError(who, company?.tax_mode, party);
  if (err) throw new BadRequestException(err);
}
