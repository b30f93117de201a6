import { BadRequestException } from '@nestjs/common';
import type { PaymentLine } from '@bahi/contracts';
import { money, type MoneyInput, round2, rsText, sub } from '@bahi/service-kit';
import type { CompanyTax } from '../common/company';
import { assertSummaryFits } from '../common/discounts';
import type { LineDoc } from '../common/schemas';

/**
 * The checkout's last word on the counter's guards (issue 28), before anything is applied: no
 * line discount above its rate and no summary discount above the bill (a cart or estimate written
 * before the rules), and a due left on the walk-in customer only as the company's walkin_credit
 * allows ('refuse': 400; 'confirm' is asked by the counter; 'allow').
 */
export function assertCounterGuards(doc: LineDoc, co: CompanyTax, amount: MoneyInput, paid: MoneyInput, walkIn: boolean): void {
  for (const l of doc.lines) {
    if (money(l.discount || '0').greaterThan(money(l.mrp))) throw new BadRequestException(`The discount on ${l.product_name} cannot be more than its rate, ${rsText(l.mrp)}.`);
  }
  assertSummaryFits(doc, co);
  const due = sub(amount, paid);
  if (walkIn && due.greaterThan(0) && co.details.walkin_credit === 'refuse') {
    throw new BadRequestException(`${rsText(due)} would stay due on the walk-in customer, whom nobody can be asked to pay: choose the customer or take the full amount.`);
  }
}

/** What a sale would leave due on the walk-in customer (the counter's confirm question), with the company's setting. */
export function walkinDue(co: CompanyTax, walkIn: boolean, amount: MoneyInput, paid: MoneyInput): { walkin_due: string | null; walkin_credit: 'confirm' | 'refuse' | 'allow' } {
  const due = round2(sub(amount, paid));
  return { walkin_due: walkIn && due.greaterThan(0) ? due.toFixed(2) : null, walkin_credit: co.details.walkin_credit ?? 'confirm' };
}

export const REGISTER_CLOSED = 'Open the register first.';

/**
 * With the company's require_register on (issue 29), a sale taking any cash needs the cashier's
 * open register session; the ledger owns the sessions (one NATS request, only when it applies).
 */
export async function assertRegisterOpen(co: CompanyTax, payments: readonly PaymentLine[], isOpen: () => Promise<boolean>): Promise<void> {
  if (co.details.require_register !== true) return;
  if (!payments.some((p) => p.mode === 'cash' && money(p.amount).greaterThan(0))) return;
  if (!(await isOpen())) throw new BadRequestException(REGISTER_CLOSED);
}
