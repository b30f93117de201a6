import { Controller } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MessagePattern, Payload, RpcException } from '@nestjs/microservices';
import type { Model } from 'mongoose';
import { Subjects, type CartClearReply, type CartClearRequest, type CartGetRequest, type EstimateGetRequest, type SourceLines } from '@bahi/contracts';
import { CartsService } from './carts.service';
import { type CartDoc, type EstimateDoc, type LineDoc, Models } from '../common/schemas';

function positive(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) throw new RpcException({ status: 400, message: `${field} is required.` });
  return v;
}

const view = (d: LineDoc | null): SourceLines => ({
  lines: (d?.lines ?? []).map((l) => ({
    sl_no: l.sl_no,
    product_id: l.product_id,
    product_name: l.product_name,
    mrp: l.mrp,
    unit: l.unit,
    quantity: l.quantity,
    per_peice_quantity: l.per_peice_quantity,
    discount: l.discount,
  })),
  tax: d?.tax === 1 ? 1 : 0,
  shipping: d?.shipping ?? '0',
  discount: d?.discount ?? '0',
  version: d?.version ?? 0,
});

/** What inventory's purchase checkout reads from (and empties in) sales. */
@Controller()
export class PurchaseSourceHandlers {
  constructor(
    @InjectModel(Models.Cart) private readonly carts: Model<CartDoc>,
    @InjectModel(Models.Estimate) private readonly estimates: Model<EstimateDoc>,
    private readonly cartsService: CartsService,
  ) {}

  @MessagePattern(Subjects.sales.cartGet)
  async cart(@Payload() msg: CartGetRequest): Promise<SourceLines> {
    const key = { companyId: positive('companyId', msg?.companyId), userId: positive('userId', msg.userId), cart_no: positive('cart_no', msg.cart_no) };
    return view((await this.carts.findOne(key).lean()) as CartDoc | null);
  }

  /** Empties the cart if it is still the purchased version, else removes only the purchased lines. Safe to repeat. */
  @MessagePattern(Subjects.sales.cartClear)
  async clear(@Payload() msg: CartClearRequest): Promise<CartClearReply> {
    const key = { companyId: positive('companyId', msg?.companyId), userId: positive('userId', msg.userId), cart_no: positive('cart_no', msg.cart_no) };
    return { cleared: await this.cartsService.emptySold(key, msg.version, Array.isArray(msg.sl_nos) ? msg.sl_nos : []) };
  }

  @MessagePattern(Subjects.sales.estimateGet)
  async estimate(@Payload() msg: EstimateGetRequest): Promise<SourceLines | null> {
    const est = await this.estimates.findOne({ companyId: positive('companyId', msg?.companyId), estimateId: positive('estimateId', msg.estimateId) }).lean();
    return est ? view(est as EstimateDoc) : null;
  }
}
