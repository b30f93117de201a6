import { type ArgumentsHost, BadRequestException, Catch, type ExceptionFilter, ForbiddenException, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Subjects, type NeedsApprovalBody, type SaleApproval } from '@bahi/contracts';
import { Decimal, div, money, mul, NatsClient, rsText } from '@bahi/service-kit';
import { type CompanyTax, isGstMode } from './company';
import type { LineDoc } from './schemas';
import { type DiscountApproval, type StoredLine, totals } from './totals';
import type { Who } from './who';

/** What the counter sends to have a manager approve a discount above the staff limit. */
export interface ApprovalInput {
  approver_id?: number;
  approval_pin?: string;
}

/** 429 while the manager's PIN is locked; the controller's filter sets Retry-After from it. */
export class PinLockedException extends HttpException {
  constructor(message: string, readonly retryAfter: number) {
    super({ statusCode: HttpStatus.TOO_MANY_REQUESTS, message, msg: message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/** Answers a locked PIN with its Retry-After header (the cart and estimate controllers use it). */
@Catch(PinLockedException)
export class PinLockedFilter implements ExceptionFilter {
  catch(err: PinLockedException, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<{ setHeader(k: string, v: string): void; status(n: number): { json(b: unknown): void } }>();
    res.setHeader('Retry-After', String(err.retryAfter));
    res.status(HttpStatus.TOO_MANY_REQUESTS).json(err.getResponse());
  }
}

const needsApproval = (msg: string) => new ForbiddenException({ statusCode: 403, needsApproval: true, msg, message: msg } satisfies NeedsApprovalBody);

/** The bill before the summary discount: subtotal + tax + shipping (the Tax flag does not apply in GST mode). */
export function billBefore(doc: Pick<LineDoc, 'lines' | 'tax' | 'shipping'>, co: CompanyTax): Decimal {
  return totals(doc.lines, { tax: isGstMode(co) ? 0 : doc.tax, shipping: doc.shipping, discount: '0' }).total;
}

/** The staff limit in percent (0-100); 100 (the spec's counter) when the company never set one. */
export const staffPercent = (co: CompanyTax): Decimal => money(co.details.staff_max_discount_percent ?? 100);

/** A refused quantity, removal, shipping or tax change: it would leave the summary discount above the bill. */
export function assertSummaryFits(doc: LineDoc, co: CompanyTax): void {
  const bill = billBefore(doc, co);
  if (money(doc.discount || '0').greaterThan(bill)) {
    throw new BadRequestException(`This would leave the discount of ${rsText(doc.discount)} more than the bill before it, ${rsText(bill)}: lower the discount first.`);
  }
}

/** The approvals a sale records: each line's and the summary's, for the discount they still carry. */
export function saleApprovals(doc: LineDoc): SaleApproval[] {
  const out: SaleApproval[] = [];
  const same = (a: DiscountApproval | null | undefined, d: string) => !!a && money(a.discount).equals(money(d || '0'));
  for (const l of doc.lines) {
    if (same(l.approval, l.discount)) out.push({ sl_no: l.sl_no, kind: 'line', discount: l.discount, approver_id: l.approval!.approver_id, approver_name: l.approval!.approver_name, at: l.approval!.at });
  }
  const s = doc.summary_approval;
  if (same(s, doc.discount)) out.push({ sl_no: null, kind: 'summary', discount: doc.discount, approver_id: s!.approver_id, approver_name: s!.approver_name, at: s!.at });
  return out;
}

/**
 * The counter's discount rules (issue 28), for carts and estimates alike: a line's discount never
 * above its rate, the summary discount never above the bill before it (400, nothing changed); a
 * staff member's discount above the company's percent needs a manager's PIN (403 needsApproval,
 * then the same call with approver_id and approval_pin). Managers are never asked.
 */
@Injectable()
export class Discounts {
  constructor(private readonly nats: NatsClient) {}

  /** The approval for this call, asked of identity at most once (each ask counts against the PIN's tries). */
  gate(who: Who, input: ApprovalInput): (why: string, discount: string) => Promise<DiscountApproval | undefined> {
    let verified: Promise<{ id: number; name: string }> | undefined;
    return async (why, discount) => {
      if (who.position === 'manager') return undefined;
      if (input.approver_id === undefined || !input.approval_pin) throw needsApproval(why);
      verified ??= this.verify(who.companyId, input.approver_id, input.approval_pin);
      const a = await verified;
      return { approver_id: a.id, approver_name: a.name, discount, at: new Date().toISOString() };
    };
  }

  /** GET /approvers: the company's managers, for the counter's approval dialog. */
  approvers(companyId: number) {
    return this.nats.send(Subjects.identity.approverList, { companyId });
  }

  private async verify(companyId: number, approverId: number, pin: string): Promise<{ id: number; name: string }> {
    const r = await this.nats.send(Subjects.identity.approverVerify, { companyId, approverId, pin });
    if (r.ok) return r;
    if (r.status === 429) throw new PinLockedException(r.message, r.retryAfter ?? 1);
    throw new ForbiddenException({ statusCode: 403, message: r.message, msg: r.message });
  }

  /** Sets a line's discount after the checks; the line keeps the approval it needed, if any. */
  async setLine(doc: LineDoc, line: StoredLine, discount: string, co: CompanyTax, approve: ReturnType<Discounts['gate']>): Promise<void> {
    const d = money(discount);
    if (d.greaterThan(money(line.mrp))) throw new BadRequestException(`The discount on ${line.product_name} cannot be more than its rate, ${rsText(line.mrp)}.`);
    const pct = staffPercent(co);
    const limit = mul(line.mrp, div(pct, 100));
    let approval: DiscountApproval | undefined;
    if (d.greaterThan(limit)) {
      approval = await approve(`A discount of ${rsText(d)} on ${line.product_name} is more than ${pct.toFixed()}% of its rate (${rsText(limit)}): a manager must approve it.`, d.toFixed());
    }
    line.discount = d.toFixed();
    if (approval) line.approval = approval;
    else delete line.approval;
    assertSummaryFits(doc, co);
  }

  /** Sets the summary discount after the checks; the staff limit is a percent of the subtotal after line discounts. */
  async setSummary(doc: LineDoc, discount: string, co: CompanyTax, approve: ReturnType<Discounts['gate']>): Promise<void> {
    const d = money(discount);
    const bill = billBefore(doc, co);
    if (d.greaterThan(bill)) throw new BadRequestException(`The discount cannot be more than the bill before it, ${rsText(bill)}.`);
    const pct = staffPercent(co);
    const limit = mul(totals(doc.lines, { tax: 0, shipping: '0', discount: '0' }).subtotal, div(pct, 100));
    let approval: DiscountApproval | undefined;
    if (d.greaterThan(limit)) {
      approval = await approve(`A discount of ${rsText(d)} on this bill is more than ${pct.toFixed()}% of the subtotal (${rsText(limit)}): a manager must approve it.`, d.toFixed());
    }
    doc.discount = d.toFixed();
    doc.summary_approval = approval ?? null;
  }
}
