import { Controller } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { Model } from 'mongoose';
import { Subjects, type CartClearReply, type CartClearRequest, type CartGetRequest, type EstimateGetRequest, type SourceLines } from '@bahi/contracts';
import { CompanyMsg, RpcId, RpcIdList } from '@bahi/service-kit';
import { CartsService } from './carts.service';
import { type CartDoc, type EstimateDoc, type LineDoc, Models } from '../common/schemas';

/** A cart holds at most this many lines to clear in one request. */
const MAX_SL_NOS = 1000;

class CartGetMsg extends CompanyMsg implements CartGetRequest {
  @RpcId() userId!: number;
  @RpcId() cart_no!: number;
}
class CartClearMsg extends CartGetMsg implements CartClearRequest {
  /** 0: a cart never written. */
  @RpcId({ min: 0 }) version!: number;
  @RpcIdList(MAX_SL_NOS) sl_nos!: number[];
}
class EstimateGetMsg extends CompanyMsg implements EstimateGetRequest {
  @RpcId() estimateId!: number;
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
  async cart(@Payload() msg: CartGetMsg): Promise<SourceLines> {
    const key = { companyId: msg.companyId, userId: msg.userId, cart_no: msg.cart_no };
    return view((await this.carts.findOne(key).lean()) as CartDoc | null);
  }

  /** Empties the cart if it is still the purchased version, else removes only the purchased lines. Safe to repeat. */
  @MessagePattern(Subjects.sales.cartClear)
  async clear(@Payload() msg: CartClearMsg): Promise<CartClearReply> {
    const key = { companyId: msg.companyId, userId: msg.userId, cart_no: msg.cart_no };
    return { cleared: await this.cartsService.emptySold(key, msg.version, msg.sl_nos) };
  }

  @MessagePattern(Subjects.sales.estimateGet)
  async estimate(@Payload() msg: EstimateGetMsg): Promise<SourceLines | null> {
    const est = await this.estimates.findOne({ companyId: msg.companyId, estimateId: msg.estimateId }).lean();
    return est ? view(est as EstimateDoc) : null;
  }
}
