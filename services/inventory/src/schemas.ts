import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { StockSourceKind } from '@bahi/contracts';
import type { SupplyType } from '@bahi/gst';

/** A product. Money in integer paise, quantities in integer thousandths of the unit. */
@Schema({ collection: 'products', timestamps: true, versionKey: false })
export class Product {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) product_id!: number;
  @Prop({ required: true }) product_name!: string;
  /** Lower-case words of name, brand and barcode, for the counter's search. */
  @Prop({ type: [String], default: [] }) words!: string[];
  @Prop({ default: '' }) brand_name!: string;
  @Prop({ type: Number, default: null }) category!: number | null;
  @Prop({ required: true }) mrp_p!: number;
  @Prop({ required: true }) cp_p!: number;
  @Prop({ required: true }) unit!: string;
  @Prop({ required: true }) ppq_m!: number;
  @Prop({ default: 0 }) stock_m!: number;
  @Prop({ default: 0 }) min_m!: number;
  @Prop({ default: 0 }) def_m!: number;
  /** 0 Low, 1 On, 2 High: kept in step with stock, min and default so lists filter by index. */
  @Prop({ default: 0 }) level!: number;
  /** Multiplier, "1.18" = 18 percent. */
  @Prop({ default: '1' }) tax!: string;
  /** Rate history (@bahi/gst parseRates) when one was given; `tax` is then the rate in force when last saved, read with percentOn(). */
  @Prop({ type: [Object], default: undefined }) rates?: { rate: string; from: string }[];
  @Prop({ default: 1 }) active!: number;
  @Prop({ type: String, default: null }) image!: string | null;
  /** Spec values by the category's spec field name. */
  @Prop({ type: Object, default: {} }) specs!: Record<string, string>;
  @Prop({ default: '' }) barcode!: string;
  @Prop({ default: '' }) hsn_code!: string;
  /**
   * Whether the MRP includes GST (an Indian MRP does). Products stored before the field have none:
   * read it with includesTax(), which takes a missing value as true.
   */
  @Prop({ type: Boolean, default: true }) price_includes_tax!: boolean;
  /** GSTR-1 Table 8: taxable (missing on products saved before the field), nil, exempt or non_gst (those three at rate 0). */
  @Prop({ type: String }) supply_type?: SupplyType;
  /** Its product.changed event is not yet published (service-kit EventRelay). */
  @Prop({ type: String }) evt?: string;
  /** The `seq` of its last stock movement (stock/stock.service.ts movementSeq); absent before any since it was kept. */
  @Prop({ type: Number }) mv_seq?: number;
}

export const includesTax = (p: Pick<Product, 'price_includes_tax'>): boolean => p.price_includes_tax !== false;
export const ProductSchema = SchemaFactory.createForClass(Product);
ProductSchema.index({ companyId: 1, product_id: 1 }, { unique: true });
ProductSchema.index({ companyId: 1, category: 1 });
ProductSchema.index({ companyId: 1, brand_name: 1 });
ProductSchema.index({ companyId: 1, barcode: 1 });
ProductSchema.index({ companyId: 1, words: 1 });

export interface CategorySpec {
  field_name: string;
  default_value: string;
  is_number: boolean;
  /** 1-3: printed on labels in this order; 0: not on labels. */
  priority: number;
  alias: string;
}

@Schema({ collection: 'categories', timestamps: true, versionKey: false })
export class Category {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) id!: number;
  @Prop({ required: true }) name!: string;
  @Prop({ type: Number, default: null }) belongs_to!: number | null;
  @Prop({ type: [Object], default: [] }) specs!: CategorySpec[];
}
export const CategorySchema = SchemaFactory.createForClass(Category);
CategorySchema.index({ companyId: 1, id: 1 }, { unique: true });
CategorySchema.index({ companyId: 1, name: 1 }, { unique: true });

@Schema({ collection: 'brands', versionKey: false })
export class Brand {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) name!: string;
}
export const BrandSchema = SchemaFactory.createForClass(Brand);
BrandSchema.index({ companyId: 1, name: 1 }, { unique: true });

@Schema({ collection: 'units', versionKey: false })
export class Unit {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) name!: string;
}
export const UnitSchema = SchemaFactory.createForClass(Unit);
UnitSchema.index({ companyId: 1, name: 1 }, { unique: true });

/** One change of one product's stock. Stock is never changed without one. */
@Schema({ collection: 'movements', versionKey: false })
export class Movement {
  @Prop({ required: true }) companyId!: number;
  @Prop({ required: true }) product_id!: number;
  @Prop({ type: String, required: true }) kind!: StockSourceKind;
  @Prop({ required: true }) source_id!: number;
  @Prop({ required: true }) line!: number;
  /** Signed thousandths: negative = out. */
  @Prop({ required: true }) qty_m!: number;
  @Prop({ required: true }) rate_p!: number;
  @Prop({ required: true }) stock_m!: number;
  @Prop({ required: true }) date!: Date;
  /** Orders one product's movements (movementSeq): not a number series, not shown. */
  @Prop({ required: true }) seq!: number;
}
export const MovementSchema = SchemaFactory.createForClass(Movement);
MovementSchema.index({ companyId: 1, product_id: 1, seq: -1 });
MovementSchema.index({ companyId: 1, kind: 1, source_id: 1, line: 1 }, { unique: true });

/** One applied source document: the idempotency key of inventory.stock.apply/reverse. */
@Schema({ collection: 'stock_sources', versionKey: false })
export class StockSourceDoc {
  @Prop({ required: true }) companyId!: number;
  @Prop({ type: String, required: true }) kind!: StockSourceKind;
  @Prop({ required: true }) id!: number;
  @Prop({ default: false }) reversed!: boolean;
  @Prop({ required: true }) at!: Date;
  /** Its stock.moved event is not yet published (service-kit EventRelay). */
  @Prop({ type: String }) evt?: string;
}
export const StockSourceSchema = SchemaFactory.createForClass(StockSourceDoc);
StockSourceSchema.index({ companyId: 1, kind: 1, id: 1 }, { unique: true });
