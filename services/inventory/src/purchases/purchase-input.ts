import { BadRequestException } from '@nestjs/common';
import type { PaymentLine } from '@bahi/contracts';
import { Decimal, isRealDate, Limits, money, parsePayments, PaymentsError, today } from '@bahi/service-kit';

/** Spec 000 §5 messages, word for word. */
export const Msg = {
  billNo: 'Bill number is required.',
  paid: 'Please enter a valid payment amount.',
  dueDate: 'Please select a due date.',
  pastDue: 'Due date cannot be in the past.',
  emptyCart: 'cart is emplty!!',
  distributor: 'Select a valid Distributor from the list',
  officer: 'Select a valid officer of the distributor.',
  estimate: 'No estimate id found',
} as const;


export interface PurchaseInput {
  bill_no: string;
  distributorId: number;
  officerId: number | null;
  paid: string;
  /** How paid was tendered (service-kit parsePayments): adds up to paid; none sent: cash. */
  payments: PaymentLine[];
  dueDate: string;
  idempotencyKey?: string;
}

/** A money call's tenders of its own amount field, or 400 with the sentence (issue 28). */
export function readPayments(raw: unknown, total: string, field: 'paid' | 'refund'): PaymentLine[] {
  try {
    return parsePayments(raw, total, field);
  } catch (err) {
    if (err instanceof PaymentsError) throw new BadRequestException(err.message);
    throw err;
  }
}

const wholeNumber = (v: unknown): number | null => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  return /^\d+$/.test(s) && Number(s) <= Limits.maxId && Number(s) > 0 ? Number(s) : null;
};

/** Checks the purchase panel's fields in the order the panel does (spec 000 §5). The officer is optional (blank from an estimate). */
export function parsePurchase(body: Record<string, unknown> | undefined, key: string | undefined): PurchaseInput {
  const b = body ?? {};
  const bill = typeof b.bill_no === 'string' || typeof b.bill_no === 'number' ? String(b.bill_no).trim() : '';
  if (!bill) throw new BadRequestException(Msg.billNo);
  if (bill.length > 60) throw new BadRequestException('Bill number can have at most 60 characters.');
  let paid: Decimal;
  try {
    if (b.paid === undefined || b.paid === null || (typeof b.paid === 'string' && !b.paid.trim()) || typeof b.paid === 'boolean') throw new Error();
    paid = money(b.paid as string | number);
  } catch {
    throw new BadRequestException(Msg.paid);
  }
  if (paid.isNegative() || paid.decimalPlaces() > 2 || paid.greaterThan(Limits.maxAmount)) throw new BadRequestException(Msg.paid);
  const payments = readPayments(b.payments, paid.toFixed(), 'paid');
  const due = typeof b.due_date === 'string' ? b.due_date.trim().slice(0, 10) : '';
  if (!due || !isRealDate(due)) throw new BadRequestException(Msg.dueDate);
  if (due < today()) throw new BadRequestException(Msg.pastDue);
  const distributorId = wholeNumber(b.distributor);
  if (!distributorId) throw new BadRequestException(Msg.distributor);
  const officerRaw = b.officer;
  const blank = officerRaw === undefined || officerRaw === null || officerRaw === '' || officerRaw === 0;
  const officerId = blank ? null : wholeNumber(officerRaw);
  if (!blank && !officerId) throw new BadRequestException(Msg.officer);
  const k = key ?? (typeof b.idempotencyKey === 'string' ? b.idempotencyKey : undefined);
  if (k !== undefined && !/^[\w.:-]{1,100}$/.test(k)) throw new BadRequestException('Idempotency-Key may hold letters, digits, . : _ and - only (at most 100).');
  return { bill_no: bill, distributorId, officerId, paid: paid.toFixed(), payments, dueDate: due, idempotencyKey: k };
}

export function cartNo(v: unknown): number {
  if (v === undefined || v === null || v === '') return 1;
  const n = wholeNumber(v);
  if (!n) throw new BadRequestException('cart_no must be a positive whole number.');
  if (n > Limits.maxCartNo) throw new BadRequestException(`cart_no must be at most ${Limits.maxCartNo}.`);
  return n;
}

export function estimateId(v: unknown): number {
  const n = wholeNumber(v);
  if (!n) throw new BadRequestException(Msg.estimate);
  return n;
}
