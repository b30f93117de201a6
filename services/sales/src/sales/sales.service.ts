import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { BillDetailsReply, CompanyDetails, GstLine, SaleDetails, SaleListReply, SoldProduct } from '@bahi/contracts';
import { Decimal, money, parsePayments, round2, SequenceService, sub } from '@bahi/service-kit';
import { Companies } from '../common/company';
import { mutate } from '../common/line-store';
import { Products } from '../common/products';
import { type CartDoc, Models, type SaleDoc } from '../common/schemas';
import { invoiceTotal, lineAmount, num, type StoredLine } from '../common/totals';
import type { Who } from '../common/who';
import { toCustomer } from './customers';
import { billEwaybill } from '../ewaybill/ewaybill';
import { cancelBlocker } from '../returns/cancel.service';
import { returnStatus, returnableLines } from '../returns/status';
import type { ReturnableSale } from '../returns/schema';

export const SALES_PAGE_SIZE = 10;

/** A sold line; in GST mode with its frozen taxable value and tax (null in simple mode and on estimates). */
export function soldProduct(l: StoredLine, g?: GstLine | null): SoldProduct {
  return {
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    hsn_code: l.hsn_code,
    unit: l.unit,
    quantity: num(l.quantity),
    per_peice_quantity: num(l.per_peice_quantity),
    rate: num(l.mrp),
    disc: num(l.discount),
    price: num(sub(l.mrp, l.discount)),
    amount: num(lineAmount(l)),
    taxable_value: g ? num(g.taxable_value) : null,
    gst_rate: g ? num(g.gst_rate) : null,
    cgst: g ? num(g.cgst) : null,
    sgst: g ? num(g.sgst) : null,
    igst: g ? num(g.igst) : null,
    ...(g?.supply_type && g.supply_type !== 'taxable' ? { supply_type: g.supply_type } : {}),
  };
}

/** The GST fields of a bill (null in simple mode). */
function gstFields(s: SaleDoc): Partial<SaleDetails> {
  const g = s.gst;
  return {
    tax_mode: s.tax_mode ?? 'simple',
    invoice_no: g?.invoice_no || null,
    document: g?.document ?? null,
    place_of_supply: g?.place_of_supply ?? null,
    place_of_supply_name: g?.place_of_supply_name ?? null,
    inter_state: g ? g.inter_state : null,
    state_tax_name: g?.state_tax_name ?? null,
    taxable_total: g ? num(g.taxable_total) : null,
    cgst_total: g ? num(g.cgst_total) : null,
    sgst_total: g ? num(g.sgst_total) : null,
    igst_total: g ? num(g.igst_total) : null,
    round_off: g ? num(g.round_off) : null,
    invoice_value: g ? num(g.invoice_value) : null,
    recipient: g?.recipient ?? null,
  };
}

/** Due shown rounded to whole rupees (spec 000 §9). */
export const roundDue = (x: Decimal) => x.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);

@Injectable()
export class SalesService {
  constructor(
    @InjectModel(Models.Sale) readonly model: Model<SaleDoc>,
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    private readonly companies: Companies,
    private readonly products: Products,
    private readonly seq: SequenceService,
  ) {}

  async list(companyId: number, pageNo: number): Promise<SaleListReply> {
    const filter = { companyId, status: 'complete' as const };
    const [count, rows] = await Promise.all([
      this.model.countDocuments(filter),
      this.model.find(filter).sort({ saleId: -1 }).skip(pageNo * SALES_PAGE_SIZE).limit(SALES_PAGE_SIZE).lean(),
    ]);
    return {
      salesList: (rows as ReturnableSale[]).map((s) => ({
        id: s.saleId,
        Date: s.date,
        'Clients Name': s.customer.walkIn ? 'Unknown' : s.customer.name,
        'Total Amount': num(s.amount),
        Paid: num(s.paid),
        invoice_no: s.gst?.invoice_no || null,
        // Only a sale with an approved discount carries who approved it (the spec's columns otherwise).
        ...(s.approvals?.length ? { approved_by: [...new Set(s.approvals.map((a) => a.approver_name))].join(', ') } : {}),
        // Only a returned or cancelled bill carries a status (the spec's columns otherwise).
        ...(returnStatus(s) ? { status: returnStatus(s) } : {}),
      })),
      noOfPages: Math.max(1, Math.ceil(count / SALES_PAGE_SIZE)),
    };
  }

  async get(companyId: number, saleId: number): Promise<SaleDoc> {
    const s = await this.model.findOne({ companyId, saleId, status: 'complete' }).lean();
    if (!s) throw new NotFoundException(`Sale ${saleId} not found.`);
    return s as SaleDoc;
  }

  async company(companyId: number): Promise<CompanyDetails | null> {
    return this.companies.get(companyId).then((c) => c.details, () => null);
  }

  async bill(companyId: number, saleId: number): Promise<BillDetailsReply> {
    const s: ReturnableSale = await this.get(companyId, saleId);
    const blocked = cancelBlocker(s);
    const walkIn = s.customer.walkIn;
    const previousDue = walkIn ? new Decimal(0) : money(s.previousDue);
    const total = invoiceTotal(s.amount, previousDue, walkIn);
    const companyDetails = await this.company(companyId);
    return {
      saleDetails: {
        sale_id: s.saleId,
        saleId: s.saleId,
        date: s.date,
        due_date: s.dueDate,
        paid: num(s.paid),
        // Sales made before modes were all cash.
        payments: s.payments ?? parsePayments(undefined, s.paid, 'paid'),
        shipping: num(s.shipping),
        summery_discount: num(s.discount),
        tax: s.tax,
        taxAmount: num(s.taxAmount),
        amount: num(s.amount),
        total: num(total),
        due: num(roundDue(sub(total, s.paid))),
        walkIn,
        customer: walkIn ? null : toCustomer(s.customer),
        name: walkIn ? 'Unknown' : s.customer.name,
        ...gstFields(s),
        approvals: s.approvals ?? [],
      },
      subtotal: num(round2(s.subtotal)),
      previousDue: num(previousDue),
      soldProducts: s.lines.map((l) => soldProduct(l, s.gst?.lines.find((g) => g.sl_no === l.sl_no) ?? null)),
      companyDetails,
      ewaybill: billEwaybill(s, companyDetails),
      status: returnStatus(s),
      cancelled: s.cancelled ? { date: s.cancelled.date, reason: s.cancelled.reason } : null,
      returns: returnableLines(s),
      creditNotes: (s.creditNotes ?? []).map((n) => ({ creditNoteId: n.creditNoteId, credit_note_no: n.credit_note_no, date: n.date, amount: num(n.amount), refund: num(n.refund) })),
      // A payment after the sale is checked by the ledger when the cancel is asked for.
      cancellable: { ok: !blocked, reason: blocked },
    };
  }

  /**
   * Move to Cart: the bill's products and quantities (with their discounts) replace the cart, at
   * today's prices and stock; products no longer sold are left out.
   */
  async fillCart(who: Who, cartNo: number, saleId: number): Promise<{ success: true; err: null; skipped: number[] }> {
    const s = await this.get(who.companyId, saleId);
    const current = new Map((await this.products.many(who.companyId, s.lines.map((l) => l.product_id))).map((p) => [p.product_id, p]));
    const skipped: number[] = [];
    await mutate(
      this.carts,
      { companyId: who.companyId, userId: who.userId, cart_no: cartNo },
      async (doc) => {
        doc.lines = [];
        for (const l of s.lines) {
          const p = current.get(l.product_id);
          if (!p || p.active === 0) {
            skipped.push(l.product_id);
            continue;
          }
          const { gst_rates: _old, ...kept } = l;
          doc.lines.push({ ...kept, ...(p.rates?.length ? { gst_rates: p.rates } : {}), sl_no: await this.seq.unique(who.companyId, 'line'), product_name: p.product_name, mrp: money(p.mrp).toFixed(), stock: money(p.stock).toFixed(), unit: p.unit, hsn_code: p.hsn_code ?? l.hsn_code, gst_rate: p.tax_percent ?? undefined, price_includes_tax: p.price_includes_tax !== false, cp: money(p.cp || '0').toFixed() });
        }
        doc.tax = s.tax;
        doc.shipping = s.shipping;
        doc.discount = s.discount;
      },
      { upsert: {} },
    );
    return { success: true, err: null, skipped };
  }
}
