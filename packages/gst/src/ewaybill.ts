/**
 * E-way bills (Rule 138 CGST Rules) and GSTR-2B bill numbers: the formats, as pure functions.
 *
 * The bulk-upload JSON's keys and value types follow the e-way bill portal's bulk generation
 * tool (version 1.0.0621) as India Compliance (resilient-tech/india-compliance,
 * india_compliance/gst_india/utils/e_waybill.py, its `for_json` keys transType /
 * actualFromStateCode / actualToStateCode) writes it; see packages/gst/README.md.
 */

/** The portal's bulk-upload JSON version. */
export const EWB_JSON_VERSION = '1.0.0621';

export const TRANSPORT_MODES = ['road', 'rail', 'air', 'ship'] as const;
export type TransportMode = (typeof TRANSPORT_MODES)[number];
/** The portal's transMode codes. */
export const TRANSPORT_MODE_CODE: Record<TransportMode, string> = { road: '1', rail: '2', air: '3', ship: '4' };

export const VEHICLE_TYPES = ['regular', 'odc'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
/** R regular, O over-dimensional cargo. */
export const VEHICLE_TYPE_CODE: Record<VehicleType, 'R' | 'O'> = { regular: 'R', odc: 'O' };

/**
 * The portal's vehicle number formats: a registration (state letters, RTO digits, series letters,
 * four digits: MH12AB1234, DL1C1234), a temporary registration (TM + 6), a defence vehicle
 * (DF + digits/letters) or a Bharat series number (22BH1234AB).
 */
const VEHICLE_RE = /^(?:[A-Z]{2}\d{1,2}[A-Z]{0,3}\d{4}|TM[A-Z0-9]{6}|DF[A-Z0-9]{4,13}|\d{2}BH\d{4}[A-Z]{1,2})$/;

/** Upper case, spaces and dashes dropped: 'mh 12-ab 1234' -> 'MH12AB1234'. */
export const normaliseVehicleNo = (v: string): string => v.toUpperCase().replace(/[\s-]/g, '');

export const isVehicleNo = (v: string): boolean => VEHICLE_RE.test(normaliseVehicleNo(v));

/** A transporter id is a GSTIN or a 15-character TRANSIN, both capitals and digits. */
export const isTransporterId = (v: string): boolean => /^[0-9]{2}[0-9A-Z]{13}$/.test(v.toUpperCase());

/** An e-way bill number: 12 digits. */
export const isEwbNo = (v: string): boolean => /^\d{12}$/.test(v);

/** An Indian PIN code: 6 digits, not starting with 0. */
export const isPincode = (v: string): boolean => /^[1-9]\d{5}$/.test(v);

/** A party's country as typed names India ('India', 'IN', 'Bharat', 'भारत'; any case); '' counts as India (the forms' default). */
export function isIndia(country: string | null | undefined): boolean {
  const c = (country ?? '').trim().toLowerCase().replace(/\.$/, '');
  return c === '' || ['india', 'in', 'ind', 'bharat', 'भारत', 'republic of india'].includes(c);
}

/**
 * In GST mode (regular or composition) a party in India needs a PIN code: the e-way bill names the
 * recipient's and the supplier's PIN. Null when fine, else the sentence (the party's kind named).
 */
export function partyPincodeError(who: 'customer' | 'distributor', taxMode: string | null | undefined, party: { country?: string | null; postal_code?: string | null }): string | null {
  if (!taxMode || taxMode === 'simple' || !isIndia(party.country)) return null;
  const pin = (party.postal_code ?? '').trim();
  if (isPincode(pin)) return null;
  return `postal_code must be a 6-digit PIN code not starting with 0 (e.g. 411001): a ${who} in India needs one in GST mode, for e-way bills; '${pin}' is not one.`;
}

/** dd/mm/yyyy from YYYY-MM-DD (the portal's date format). */
export function ewbDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

/**
 * A supplier's bill number as GSTR-2B and the purchase book are compared: capitals, without
 * spaces, '/' and '-', and without leading zeros in each run of digits ('inv/007' = 'INV7').
 */
export function normaliseBillNo(v: string): string {
  return v
    .toUpperCase()
    .replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, ''))
    .replace(/[\s/\-]/g, '');
}
