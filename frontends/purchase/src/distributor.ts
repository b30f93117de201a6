// Distributor form rules (spec 001 §3-§5, §8).

import type { Distributor, Officer } from '@bahi/contracts';
import { i18n } from '@bahi/i18n';

export type { Distributor };
/** An officer row of the form: a new row has no id yet. */
export type OfficerRow = Pick<Officer, 'name'> & Partial<Pick<Officer, 'id' | 'mobile'>>;

/** What the form edits and sends: the spec's fields plus the optional GSTIN ('' for none). */
export type DistributorFormValues = Pick<Distributor, 'name' | 'address_line_1' | 'address_line_2' | 'city_or_district' | 'state' | 'country' | 'postal_code'> & {
  gstin: string;
};

// Getters: each message is read in the language active when it is shown.
export const MSG = {
  get created() {
    return i18n.t('purchase:form.created');
  },
  get updated() {
    return i18n.t('purchase:form.updated');
  },
};

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

/** Each field's label key in the purchase catalogue. */
const LABELS: Record<keyof DistributorFormValues, string> = {
  name: 'name',
  address_line_1: 'address1',
  address_line_2: 'address2',
  city_or_district: 'city',
  state: 'state',
  country: 'country',
  postal_code: 'zip',
  gstin: 'gstin',
};

export const FIELDS = Object.keys(LABELS) as (keyof DistributorFormValues)[];
export const fieldLabel = (k: keyof DistributorFormValues) => i18n.t(`purchase:form.${LABELS[k]}`);
export const isRequired = (k: keyof DistributorFormValues) => k !== 'address_line_2' && k !== 'gstin';

/** The first problem of the form as a sentence, or null when it can be saved. All required but address line 2; zip numeric. */
export function distributorFormError(v: DistributorFormValues): string | null {
  for (const k of FIELDS) if (isRequired(k) && !String(v[k] ?? '').trim()) return i18n.t('purchase:form.required', { field: fieldLabel(k) });
  if (!/^\d+$/.test(v.postal_code.trim())) return i18n.t('purchase:form.zipNumeric');
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
