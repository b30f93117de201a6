// Customer form rules (spec 000 §3-§5), shared by the customer screens and the cart's add-customer panel.

import type { Customer } from '@bahi/contracts';
import { i18n } from '@bahi/i18n';
import { validateGstin } from '@bahi/gst';

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

/**
 * A new customer's form in GST mode: the company's state instead of the spec's Maharashtra (the
 * state decides CGST/SGST versus IGST) and an empty zip, since the server wants a 6-digit PIN and
 * the spec's 1000001 is none. What the user already changed stays.
 */
export function gstModeStart(f: CustomerFormValues, companyState: string): CustomerFormValues {
  return {
    ...f,
    ...(f.state === NEW_CUSTOMER.state ? { state: companyState } : {}),
    ...(f.postal_code === NEW_CUSTOMER.postal_code ? { postal_code: '' } : {}),
  };
}

// Read when shown, in the active language.
const labels = (): Record<keyof CustomerFormValues, string> => ({
  mobile_no: i18n.t('sales:customerForm.mobile'),
  name: i18n.t('sales:customerForm.name'),
  address_line_1: i18n.t('sales:customerForm.address1'),
  address_line_2: i18n.t('sales:customerForm.address2'),
  city_or_district: i18n.t('sales:customerForm.city'),
  state: i18n.t('sales:customerForm.state'),
  country: i18n.t('sales:customerForm.country'),
  postal_code: i18n.t('sales:customerForm.zip'),
  gstin: i18n.t('sales:customerForm.gstin'),
});

const REQUIRED: (keyof CustomerFormValues)[] = ['mobile_no', 'name', 'address_line_1', 'city_or_district', 'state', 'country', 'postal_code'];

/** The first problem of the form as a sentence, or null when it can be saved. */
export function customerFormError(v: CustomerFormValues): string | null {
  for (const k of REQUIRED) if (!String(v[k] ?? '').trim()) return i18n.t('sales:customerForm.required', { field: labels()[k] });
  if (!/^\d{10}$/.test(v.mobile_no.trim())) return i18n.t('sales:customerForm.mobileDigits');
  if (!/^\d+$/.test(v.postal_code.trim())) return i18n.t('sales:customerForm.zipNumeric');
  return null;
}

export const fieldLabel = (k: keyof CustomerFormValues) => labels()[k];

/** 'id : name mobile', the suggestion text of spec 000 (customer list search). */
export const suggestionText = (c: Pick<Customer, 'client_id' | 'name' | 'mobile_no'>) => `${c.client_id} : ${c.name} ${c.mobile_no}`;

/** The client id a chosen suggestion names, if it is one of the listed customers. */
export function chosenClientId(text: string, listed: Pick<Customer, 'client_id'>[]): number | null {
  const m = /^\s*(\d+)\s*:/.exec(text);
  if (!m) return null;
  const id = Number(m[1]);
  return listed.some((c) => c.client_id === id) ? id : null;
}

/** Issue 32: the text typed in the customer search starts Add Customer: 10 digits are the mobile, other text the name. */
export function newCustomerFromSearch(typed: string): Partial<CustomerFormValues> {
  const t = typed.trim();
  if (!t || /^\d+\s*:/.test(t)) return {};
  return /^\d{10}$/.test(t) ? { mobile_no: t } : { name: t };
}

/** A valid GSTIN's first two digits are the holder's state (GST state code); null otherwise. */
export function stateFromGstin(gstin: string): string | null {
  const r = validateGstin(gstin);
  return r.ok ? r.stateCode : null;
}
