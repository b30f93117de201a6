import { GstError } from './errors';
import { validateGstin } from './gstin';
import { TaxMode } from './invoice';
import { parseInvoicePrefix } from './invoice-number';
import { parseState } from './states';

export const TAX_MODES: readonly TaxMode[] = ['simple', 'gst', 'composition'];

export interface CompanyGstInput {
  tax_mode: string;
  gstin?: string | null;
  invoice_prefix?: string | null;
  /** Optional: when given it must agree with the GSTIN. */
  state_code?: string | number | null;
}

export interface CompanyGst {
  tax_mode: TaxMode;
  gstin: string | null;
  invoice_prefix: string | null;
  state_code: string | null;
}

const given = (x: unknown): boolean => x !== undefined && x !== null && String(x).trim() !== '';

/**
 * A company's GST settings, checked together: gst and composition need a valid GSTIN and an
 * invoice prefix, and the company's state is always the GSTIN's first two digits.
 */
export function validateCompanyGst(input: CompanyGstInput): CompanyGst {
  const mode = input.tax_mode as TaxMode;
  if (!TAX_MODES.includes(mode)) throw new GstError(`tax_mode must be one of ${TAX_MODES.join(', ')}; got '${String(input.tax_mode)}'.`);
  const registered = mode !== 'simple';
  if (registered && !given(input.gstin)) throw new GstError(`tax_mode ${mode} needs the company's GSTIN.`);
  if (registered && !given(input.invoice_prefix)) throw new GstError(`tax_mode ${mode} needs an invoice prefix (1 to 6 letters or digits).`);

  let gstin: string | null = null;
  let state: string | null = null;
  if (given(input.gstin)) {
    const g = validateGstin(String(input.gstin));
    if (!g.ok) throw new GstError(`GSTIN: ${g.message}`);
    gstin = g.gstin;
    state = g.stateCode;
  }
  if (given(input.state_code)) {
    const s = parseState(input.state_code as string | number);
    if (state && s !== state) throw new GstError(`The state (${s}) must be the GSTIN's state code (${state}).`);
    state = state ?? s;
  }
  return {
    tax_mode: mode,
    gstin,
    invoice_prefix: given(input.invoice_prefix) ? parseInvoicePrefix(String(input.invoice_prefix)) : null,
    state_code: state,
  };
}
