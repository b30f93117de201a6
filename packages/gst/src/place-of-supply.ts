import { GstError } from './errors';
import { validateGstin } from './gstin';
import { parseState } from './states';

export interface PlaceOfSupplyInput {
  customerGstin?: string | null;
  customerState?: string | number | null;
  companyState: string | number;
}

/**
 * Place of supply of goods (IGST Act s.10(1)): where the goods are delivered. We take the
 * customer's registered state (their GSTIN), else the state recorded for them, else the
 * company's own state (a walk-in buying at the counter takes delivery there, s.10(1)(c)).
 * Returns the two-digit code.
 */
export function placeOfSupply({ customerGstin, customerState, companyState }: PlaceOfSupplyInput): string {
  if (customerGstin !== undefined && customerGstin !== null && String(customerGstin).trim() !== '') {
    const g = validateGstin(customerGstin);
    if (!g.ok) throw new GstError(`Customer GSTIN: ${g.message}`);
    return g.stateCode;
  }
  if (customerState !== undefined && customerState !== null && String(customerState).trim() !== '') {
    return parseState(customerState);
  }
  return parseState(companyState);
}

/** Inter-state when the place of supply is outside the supplier's state (IGST Act s.7(1)); intra-state otherwise (s.8(1)). */
export const isInterState = (placeOfSupplyCode: string, companyState: string | number): boolean =>
  parseState(placeOfSupplyCode) !== parseState(companyState);
