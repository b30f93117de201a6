import { amount, AmountInput, Decimal } from './amount';
import { GstError } from './errors';

/** Rates the GST rate notifications use (incl. 0.1/0.25/1.5/3/7.5 for special goods and 40 since 22 Sept 2025). */
export const GST_RATES = ['0', '0.1', '0.25', '1', '1.5', '3', '5', '6', '7.5', '12', '18', '28', '40'] as const;

const ALLOWED = GST_RATES.map((r) => new Decimal(r));

/** Parses a rate in percent (18, '18', '7.50') and refuses one that is not a GST rate. */
export function parseRate(input: AmountInput): Decimal {
  const rate = amount(input, 'GST rate');
  if (!ALLOWED.some((r) => r.equals(rate))) {
    throw new GstError(`${rate.toFixed()} % is not a GST rate (allowed: ${GST_RATES.join(', ')}).`);
  }
  return rate;
}

export const isGstRate = (input: AmountInput): boolean => {
  try {
    parseRate(input);
    return true;
  } catch {
    return false;
  }
};

/** HSN code: 4, 6 or 8 digits (Rule 46(g) and Notification 78/2020-CT ask for 4 or 6; 8 is the full tariff item). */
export function parseHsn(input: string | number): string {
  const hsn = String(input ?? '').trim();
  if (!/^(\d{4}|\d{6}|\d{8})$/.test(hsn)) throw new GstError(`HSN code '${hsn}' must be 4, 6 or 8 digits.`);
  return hsn;
}

export const isHsn = (input: string | number): boolean => /^(\d{4}|\d{6}|\d{8})$/.test(String(input ?? '').trim());
