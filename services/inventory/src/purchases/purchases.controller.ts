import { Body, Controller, Get, Headers, HttpCode, Post, Query } from '@nestjs/common';
import type {
  CheckOutPurchaseReply,
  DistributorCheckoutReply,
  GetPurchaseDetailsReply,
  GetPurchaseLabelDetailsReply,
  GetPurchaseListReply,
  PreviewPurchaseReply,
} from '@bahi/contracts';
import { Subjects, type TokenClaims } from '@bahi/contracts';
import { add, CurrentUser, NatsClient, Positions, sub, Tenant } from '@bahi/service-kit';
import { intParam, pageNo, pages, PAGE_SIZE } from '../common';
import { cartNo, estimateId, parsePurchase } from './purchase-input';
import { parseCostsQuery, parsePurchaseExtras } from './purchase-extras';
import { DebitNotesService, returnableLines } from './debit-notes.service';
import { PurchaseLabelsService } from './purchase.labels';
import { PurchasesService } from './purchases.service';

const num = (s: string) => Number(s);

/** Purchases: checkout from a cart or an estimate, list, detail and labels. Managers only. */
@Controller()
@Positions('manager')
export class PurchasesController {
  constructor(
    private readonly purchases: PurchasesService,
    private readonly nats: NatsClient,
    private readonly labelData: PurchaseLabelsService,
    private readonly debitNotes: DebitNotesService,
  ) {}

  @Get('checkOutPurchase')
  checkoutData(@Tenant() companyId: number): Promise<DistributorCheckoutReply> {
    return this.nats.send(Subjects.ledger.distributorCheckout, { companyId });
  }

  /** The Idempotency-Key header (or body field) makes a retried purchase buy once. */
  @Post('checkOutPurchase')
  @HttpCode(200)
  fromCart(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() body: Record<string, unknown>, @Headers('idempotency-key') key?: string): Promise<CheckOutPurchaseReply> {
    const input = parsePurchase(body, key);
    const extras = parsePurchaseExtras(body);
    return this.purchases.checkout({ companyId, userId: user.uid }, input, { kind: 'cart', cart_no: cartNo(body?.cart_no) }, extras);
  }

  /** The purchase panel's figures before confirming: the same computation as the checkout. */
  @Get('previewPurchase')
  preview(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Query() q: Record<string, unknown>): Promise<PreviewPurchaseReply> {
    const distributor = q.distributor === undefined || q.distributor === '' ? null : intParam('distributor', q.distributor as string);
    return this.purchases.preview({ companyId, userId: user.uid }, cartNo(q.cart_no), parseCostsQuery(q.costs), distributor);
  }

  @Post('checkOutPurchaseFromEstimate')
  @HttpCode(200)
  fromEstimate(@Tenant() companyId: number, @CurrentUser() user: TokenClaims, @Body() body: Record<string, unknown>, @Headers('idempotency-key') key?: string): Promise<CheckOutPurchaseReply> {
    const input = parsePurchase(body, key);
    return this.purchases.checkout({ companyId, userId: user.uid }, input, { kind: 'estimate', estimateId: estimateId(body?.estimateId ?? body?.estimate_id) });
  }

  @Get('getPurchaseList')
  async list(@Tenant() companyId: number, @Query('pageNo') pageRaw?: string): Promise<GetPurchaseListReply> {
    const page = pageNo(pageRaw);
    const filter = { companyId, status: 'complete' as const };
    const [rows, count] = await Promise.all([
      this.purchases.model.find(filter).sort({ purchaseId: -1 }).skip(page * PAGE_SIZE).limit(PAGE_SIZE).lean(),
      this.purchases.model.countDocuments(filter),
    ]);
    return {
      purchaseList: rows.map((p) => ({ id: p.purchaseId, Date: p.date, Distributors: p.distributorName, 'Total Amount': num(p.total), Paid: num(p.paid) })),
      noOfPages: pages(count),
    };
  }

  @Get('getPurchaseDetails')
  async details(@Tenant() companyId: number, @Query('purchaseId') idRaw?: string): Promise<GetPurchaseDetailsReply> {
    const p = await this.purchases.get(companyId, intParam('purchaseId', idRaw));
    const notes = await this.debitNotes.ofPurchase(companyId, p.purchaseId);
    return {
      id: p.purchaseId,
      purchase_id: p.purchaseId,
      bill_no: p.bill_no,
      ...(p.bill_date ? { bill_date: p.bill_date } : {}),
      date: p.date,
      distributor_id: p.distributorId,
      name: p.distributorName,
      officer: p.officer,
      paid: num(p.paid),
      previous_due: num(p.previousDue),
      new_due: sub(add(p.previousDue, p.total), p.paid).toNumber(),
      duedate: p.dueDate,
      shipping: num(p.shipping),
      summery_discount: num(p.discount),
      tax: p.tax === 1 ? 1 : 0,
      taxAmount: num(p.taxAmount),
      subTotal: num(p.subtotal),
      total: num(p.total),
      lines: p.lines.map((l) => ({
        sl_no: l.sl_no,
        product_id: l.product_id,
        product_name: l.product_name,
        unit: l.unit,
        quantity: num(l.quantity),
        per_peice_quantity: num(l.per_peice_quantity),
        rate: num(l.rate),
        disc: num(l.disc),
        amount: num(l.amount),
        units: num(l.units),
      })),
      gst: p.gst ?? null,
      returns: returnableLines(p),
      debitNotes: notes.map((d) => ({ debitNoteId: d.debitNoteId, debit_note_no: d.debit_note_no, date: d.date, amount: num(d.amount), refund: num(d.refund) })),
    };
  }

  @Get('getPurchaseLabelDetails')
  async labels(@Tenant() companyId: number, @Query('purchaseId') idRaw?: string): Promise<GetPurchaseLabelDetailsReply> {
    const p = await this.purchases.get(companyId, intParam('purchaseId', idRaw));
    const lines = await this.labelData.lines(companyId, p);
    return {
      purchase_id: p.purchaseId,
      date: p.date,
      distributor_name: p.distributorName,
      labels: lines.map((l) => ({ ...l.product, code: l.code, features: l.features, packets: l.packets })),
    };
  }
}
