import { Body, Controller, Get, Headers, HttpCode, HttpException, Inject, Post, Query } from '@nestjs/common';
import { Subjects, type DueAndDueDateReply, type PaymentLine, type PaymentReply, type Receipt, type TokenClaims } from '@bahi/contracts';
import { CurrentUser, describeError, Limits, Money, NatsClient, parsePayments, PaymentsError, Positions, Tenant } from '@bahi/service-kit';
import { idParam, isCalendarDate, specFailure, today } from '../common';
import { CustomersService } from '../customers/customers.service';
import { DistributorsService } from '../distributors/distributors.service';
import { AccountsService, entryPayments, num } from './accounts.service';

export const MSG = {
  amountZero: 'Amount cannot be 0 !!',
  noCustomer: 'Please Select A Customer !!',
  noDistributor: 'Select a valid Distributor from the list',
};

const bad = (err: string, status = 400) => specFailure(status, { done: false, err });

/** The optional Idempotency-Key header (or `idempotencyKey` field): a retried payment pays once. */
function paymentKey(header: unknown, field: unknown): string | undefined {
  const v = header ?? field;
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 200) throw bad('Idempotency-Key must be text of at most 200 characters.');
  return v;
}

/** A payment amount: a positive number or decimal string with at most 2 decimals. */
function parseAmount(value: unknown): string {
  if (value === undefined || value === null || value === '') throw bad('amount is required.');
  if ((typeof value !== 'number' && typeof value !== 'string') || !Money.isMoney(value)) throw bad('amount must be a number.');
  const d = Money.money(value);
  if (d.isZero()) throw bad(MSG.amountZero);
  if (d.isNegative()) throw bad('amount must be more than 0.');
  if (d.decimalPlaces() > 2) throw bad('amount can have at most 2 decimals (paise).');
  if (d.greaterThan(Limits.maxAmount)) throw bad(`amount must be at most ${Limits.maxAmount}.`);
  return Money.toMoneyString(d);
}

/** Next due date: required by the form, defaulting to today when left out. */
function parseNextDD(value: unknown): string {
  if (value === undefined || value === null || value === '') return today();
  if (!isCalendarDate(value)) throw bad('nextDD must be a date (YYYY-MM-DD).');
  return value.slice(0, 10);
}

function partyId(value: unknown, msg: string): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > Limits.maxId) throw bad(msg);
  return n;
}

/** The tenders of a payment (service-kit parsePayments): they add up to `amount`; none sent: cash. */
function readPayments(raw: unknown, amount: string): PaymentLine[] {
  try {
    return parsePayments(raw, amount, 'amount');
  } catch (err) {
    if (err instanceof PaymentsError) throw bad(err.message);
    throw err;
  }
}

async function doneOrErr<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const out = describeError(err);
    if (err instanceof HttpException && out.status < 500 && !('done' in (err.getResponse() as object))) throw bad(out.message, out.status);
    throw err;
  }
}

const body = (b: unknown): Record<string, unknown> => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {});

/** Dues with due dates, payments received (everyone) and given (managers), receipts (spec 001 §7). */
@Controller()
export class PaymentsController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly customers: CustomersService,
    private readonly distributors: DistributorsService,
    @Inject(NatsClient) private readonly nats: NatsClient,
  ) {}

  @Get('getClientDueAndDueDate')
  async clientDue(@Tenant() companyId: number, @Query('custId') custId?: string): Promise<DueAndDueDateReply> {
    const c = await this.customers.get(companyId, idParam(custId, 'custId'));
    const { due, dueDate } = await this.accounts.dueOf(companyId, { kind: 'customer', id: c.client_id });
    return { due: c.walkIn ? 0 : num(due), dueDate };
  }

  @Get('getDueAndDueDate')
  @Positions('manager')
  async distributorDue(@Tenant() companyId: number, @Query('distId') distId?: string): Promise<DueAndDueDateReply> {
    const d = await this.distributors.get(companyId, idParam(distId, 'distId'));
    const { due, dueDate } = await this.accounts.dueOf(companyId, { kind: 'distributor', id: d.distributor_id });
    return { due: num(due), dueDate };
  }

  /** POST /salesDuePayment {client_id, amount, nextDD} -> {done, paymentId}. A payment above the due is an advance. */
  @Post('salesDuePayment')
  @HttpCode(200)
  receive(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown, @Headers('idempotency-key') keyHeader?: string): Promise<PaymentReply> {
    return doneOrErr(async () => {
      const b = body(raw);
      const idempotencyKey = paymentKey(keyHeader, b.idempotencyKey);
      const id = partyId(b.client_id, MSG.noCustomer);
      const amount = parseAmount(b.amount);
      const payments = readPayments(b.payments, amount);
      const nextDD = parseNextDD(b.nextDD);
      const c = await this.customers.find(companyId, id);
      if (!c) throw bad(MSG.noCustomer, 404);
      if (c.walkIn) throw bad(MSG.noCustomer);
      const paymentId = await this.accounts.pay({ companyId, party: { kind: 'customer', id }, amount, nextDD, idempotencyKey, payments, by: user.uid });
      return { done: true, paymentId };
    });
  }

  /** POST /purchaseDuePaymentReact {distributorId, amount, nextDD} -> {done, paymentId}. Managers only. */
  @Post('purchaseDuePaymentReact')
  @Positions('manager')
  @HttpCode(200)
  give(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() raw: unknown, @Headers('idempotency-key') keyHeader?: string): Promise<PaymentReply> {
    return doneOrErr(async () => {
      const b = body(raw);
      const idempotencyKey = paymentKey(keyHeader, b.idempotencyKey);
      const id = partyId(b.distributorId, MSG.noDistributor);
      const amount = parseAmount(b.amount);
      const payments = readPayments(b.payments, amount);
      const nextDD = parseNextDD(b.nextDD);
      if (!(await this.distributors.find(companyId, id))) throw bad(MSG.noDistributor, 404);
      const paymentId = await this.accounts.pay({ companyId, party: { kind: 'distributor', id }, amount, nextDD, idempotencyKey, payments, by: user.uid });
      return { done: true, paymentId };
    });
  }

  /** GET /getSalesPaymentDetails?id -> {data: Receipt, companyDetails} (the money receipt). */
  @Get('getSalesPaymentDetails')
  async receipt(@Tenant() companyId: number, @Query('id') id?: string) {
    const { entry, previous, after } = await this.accounts.receipt(companyId, idParam(id, 'id'));
    const c = await this.customers.get(companyId, entry.partyId);
    const companyDetails = await this.nats.send(Subjects.identity.companyDetails, { companyId });
    const address = [c.address_line_1, c.address_line_2, c.city_or_district, c.state, c.postal_code].filter(Boolean).join(', ');
    const data: Receipt = {
      id: entry.sourceId,
      client_id: c.client_id,
      name: c.name,
      mobile_no: c.mobile_no,
      address,
      type: entry.payType || 'Cash',
      transaction_id: entry.transactionId || '',
      amount: num(entry.amount),
      date: entry.date,
      next_due_date: entry.dueDate,
      previous_due: num(previous),
      due: num(after),
      payments: entryPayments(entry),
    };
    return { data, companyDetails };
  }
}
