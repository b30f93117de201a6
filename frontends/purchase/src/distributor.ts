// Distributor form rules (spec 001 §3-§5, §8).

import type { Distributor, Officer } from '@bahi/contracts';

export type { Distributor };
/** An officer row of the form: a new row has no id yet. */
export type OfficerRow = Pick<Officer, 'name'> & Partial<Pick<Officer, 'id' | 'mobile'>>;

/** What the form edits and sends: the spec's fields plus the optional GSTIN ('' for none). */
export type DistributorFormValues = Pick<Distributor, 'name' | 'address_line_1' | 'address_line_2' | 'city_or_district' | 'state' | 'country' | 'postal_code'> & {
  gstin: string;
};

export const MSG = {
  created: 'Distributor is created.',
  updated: 'Distributor Details Has been updated',
  listFailed: 'unable to connet to server',
  purchaseSuccess: 'Purchase Success...',
  purchaseFailed: 'Error Occured please contact admin..',
} as const;

/** Add defaults (spec 001 §5). */
export const NEW_DISTRIBUTOR: DistributorFormValues = {
  name: '',
  address_line_1: '',
  address_line_2: '',
  city_or_district: 'Kolkata',
  state: 'WB',
  country: 'India',
  postal_code: '700001',
  gstin: '',
};

const LABELS: Record<keyof DistributorFormValues, string> = {
  name: 'Name',
  address_line_1: 'Address line 1',
  address_line_2: 'Address line 2',
  city_or_district: 'City',
  state: 'State',
  country: 'Country',
  postal_code: 'Zip',
  gstin: 'GSTIN',
};

export const FIELDS = Object.keys(LABELS) as (keyof DistributorFormValues)[];
export const fieldLabel = (k: keyof DistributorFormValues) => LABELS[k];
export const isRequired = (k: keyof DistributorFormValues) => k !== 'address_line_2' && k !== 'gstin';

/** The first problem of the form as a sentence, or null when it can be saved. All required but address line 2; zip numeric. */
export function distributorFormError(v: DistributorFormValues): string | null {
  for (const k of FIELDS) if (isRequired(k) && !String(v[k] ?? '').trim()) return `${LABELS[k]} is required.`;
  if (!/^\d+$/.test(v.postal_code.trim())) return 'Zip must be numeric.';
  return null;
}

export const formValues = (d: Distributor): DistributorFormValues => ({
  name: d.name,
  address_line_1: d.address_line_1,
  address_line_2: d.address_line_2 ?? '',
  city_or_district: d.city_or_district,
  state: d.state,
  country: d.country,
  postal_code: d.postal_code,
  gstin: d.gstin ?? '',
});

/** Packets per product for the purchase-label PDF: `12:5,13:0` (0 leaves a product out). */
export function packetsQuery(packets: Record<number, string>): string {
  return Object.entries(packets)
    .map(([id, n]) => `${id}:${Math.max(0, Math.floor(Number(n) || 0))}`)
    .join(',');
}

/** Labels on the sheets: 4 per row, 40 per page (spec 001 §9). */
export const LABELS_PER_PAGE = 40;
export function labelPages(packets: Record<number, string>): { labels: number; pages: number } {
  const labels = Object.values(packets).reduce((s, n) => s + Math.max(0, Math.floor(Number(n) || 0)), 0);
  return { labels, pages: Math.ceil(labels / LABELS_PER_PAGE) };
}
