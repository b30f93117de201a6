// Payment form rules (spec 001 §5 and §9).

export const MSG = {
  amountZero: 'Amount cannot be 0 !!',
  noCustomer: 'Please Select A Customer !!',
  noDistributor: 'Select a valid Distributor from the list',
  invalidCustomer: 'Select a valid Customer from the list',
  noDate: 'Please select the next due date.',
  badAmount: 'Please enter a valid payment amount.',
  done: 'Payment is done',
};

export const MIN_SEARCH = 3;

/** Today in the browser's calendar, YYYY-MM-DD: the default next due date. */
export function todayISO(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

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
