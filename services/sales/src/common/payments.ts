import { BadRequestException } from '@nestjs/common';
import type { PaymentLine } from '@bahi/contracts';
import { parsePayments, PaymentsError } from '@bahi/service-kit';

/** The tenders of a money call's own amount field (`paid`, `refund`): 400 with the sentence; none sent: all cash. */
export function readPayments(raw: unknown, total: string, field: 'paid' | 'refund'): PaymentLine[] {
  try {
    return parsePayments(raw, total, field);
  } catch (err) {
    if (err instanceof PaymentsError) throw new BadRequestException(err.message);
    throw err;
  }
}
