import { BadRequestException } from '@nestjs/common';
import { GstError, parseRates, rateOn, type RateFrom } from '@bahi/gst';
import { today } from '@bahi/service-kit';
import { taxMultiplier, taxPercent } from '../common';
import type { Product } from '../schemas';

const gst400 = <T>(f: () => T): T => {
  try {
    return f();
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
};

/** The product's rate in percent on a day (YYYY-MM-DD, IST; today by default): from its rate history when it has one, else its `tax`. */
export function percentOn(p: Pick<Product, 'tax' | 'rates'>, day?: string): string {
  // The day is worked out only for a product with a history (every scan's snapshot asks twice).
  return (p.rates?.length ? rateOn(p.rates, day ?? today()) : null) ?? taxPercent(p.tax);
}

/**
 * `rates` of createNewProduct / editProduct: undefined when not sent. The history is checked by
 * @bahi/gst parseRates (GST rates, increasing dates, a rate in force today); `tax`, when sent as
 * well, must be the rate in force today. Answers the multiplier to store as `tax`.
 */
export function ratesFromBody(body: Record<string, unknown>): { rates: RateFrom[]; tax: string } | undefined {
  if (body.rates === undefined || body.rates === null) return undefined;
  const day = today();
  const rates = gst400(() => parseRates(body.rates, day));
  const now = rateOn(rates, day)!;
  const sent = typeof body.tax === 'number' || (typeof body.tax === 'string' && body.tax.trim() !== '') ? taxPercent(taxMultiplier(body.tax)) : null;
  if (sent !== null && sent !== now) throw new BadRequestException(`tax (${sent} %) is not the rate in force today by rates (${now} % from ${[...rates].reverse().find((r) => r.from <= day)!.from}); send the same rate or leave tax out.`);
  return { rates, tax: taxMultiplier(now) };
}

/**
 * An edit that sends only `tax` to a product with a rate history: a different rate becomes a step
 * starting today (a step already starting today is replaced; later known steps stay).
 */
export function historyWithTaxToday(rates: RateFrom[], taxMult: string): RateFrom[] {
  const day = today();
  const rate = taxPercent(taxMult);
  if (rateOn(rates, day) === rate) return rates;
  const steps = [...rates.filter((r) => r.from < day), { rate, from: day }, ...rates.filter((r) => r.from > day)];
  // A step equal to the one before it says nothing new (e.g. going back to yesterday's rate).
  const merged = steps.filter((s, i) => i === 0 || s.rate !== steps[i - 1]!.rate);
  return gst400(() => parseRates(merged, day));
}
