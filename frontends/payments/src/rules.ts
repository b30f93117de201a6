// Payment form rules (spec 001 §5 and §9).

import { i18n } from '@bahi/i18n';

// Getters: each message is read in the language active when it is shown.
const msg = (key: string) => i18n.t(`payments:rules.${key}`);
export const MSG = {
  get amountZero() { return msg('amountZero'); },
  get noCustomer() { return msg('noCustomer'); },
  get noDistributor() { return msg('noDistributor'); },
  get invalidCustomer() { return msg('invalidCustomer'); },
  get noDate() { return msg('noDate'); },
  get badAmount() { return msg('badAmount'); },
  get done() { return msg('done'); },
};

export const MIN_SEARCH = 3;

/** The first problem of a payment form, or null. `party` is the chosen customer or distributor id. */
export function paymentError(party: number | null, amount: string, nextDD: string, noParty: string): string | null {
  if (party === null) return noParty;
  const a = amount.trim();
  if (a === '' || !/^\d*\.?\d+$|^\d+\.$/.test(a)) return a === '' ? MSG.amountZero : MSG.badAmount;
  if (Number(a) === 0) return MSG.amountZero;
  if (!/^\d+(\.\d{1,2})?$/.test(a.replace(/\.$/, ''))) return MSG.badAmount;
  if (!nextDD) return MSG.noDate;
  return null;
}

/** 'id : name' (distributors) — a typed entry must be one of the listed ones. */
export function chosenId(text: string, listed: { id: number }[]): number | null {
  const m = /^\s*(\d+)\s*:/.exec(text);
  if (!m) return null;
  const id = Number(m[1]);
  return listed.some((x) => x.id === id) ? id : null;
}
