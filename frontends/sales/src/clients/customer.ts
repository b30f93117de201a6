// Customer form rules (spec 000 §3-§5), shared by the customer screens and the cart's add-customer panel.

import type { Customer } from '@bahi/contracts';

export type { Customer };

/** What the form edits and sends: the spec's fields plus the optional GSTIN ('' for none). */
export type CustomerFormValues = Pick<Customer, 'mobile_no' | 'name' | 'address_line_1' | 'address_line_2' | 'city_or_district' | 'state' | 'country' | 'postal_code'> & {
  gstin: string;
};

/** Defaults of a new customer (spec 000 §3). */
export const NEW_CUSTOMER: CustomerFormValues = {
  mobile_no: '',
  name: '',
  address_line_1: 'Address',
  address_line_2: '',
  city_or_district: 'Mumbai',
  state: 'MH',
  country: 'India',
  postal_code: '1000001',
  gstin: '',
};

const LABELS: Record<keyof CustomerFormValues, string> = {
  mobile_no: 'Mobile',
  name: 'Name',
  address_line_1: 'Address line 1',
  address_line_2: 'Address line 2',
  city_or_district: 'City',
  state: 'State',
  country: 'Country',
  postal_code: 'Zip',
  gstin: 'GSTIN',
};

const REQUIRED: (keyof CustomerFormValues)[] = ['mobile_no', 'name', 'address_line_1', 'city_or_district', 'state', 'country', 'postal_code'];

/** The first problem of the form as a sentence, or null when it can be saved. */
export function customerFormError(v: CustomerFormValues): string | null {
  for (const k of REQUIRED) if (!String(v[k] ?? '').trim()) return `${LABELS[k]} is required.`;
  if (!/^\d{10}$/.test(v.mobile_no.trim())) return 'Mobile must be a 10-digit number.';
  if (!/^\d+$/.test(v.postal_code.trim())) return 'Zip must be numeric.';
  return null;
}

export const fieldLabel = (k: keyof CustomerFormValues) => LABELS[k];

/** 'id : name mobile', the suggestion text of spec 000 (customer list search). */
export const suggestionText = (c: Pick<Customer, 'client_id' | 'name' | 'mobile_no'>) => `${c.client_id} : ${c.name} ${c.mobile_no}`;

/** The client id a chosen suggestion names, if it is one of the listed customers. */
export function chosenClientId(text: string, listed: Pick<Customer, 'client_id'>[]): number | null {
  const m = /^\s*(\d+)\s*:/.exec(text);
  if (!m) return null;
  const id = Number(m[1]);
  return listed.some((c) => c.client_id === id) ? id : null;
}
