import { BadRequestException } from '@nestjs/common';
import { GstError, parseSupplyType, type SupplyType } from '@bahi/gst';
import { Limits } from '@bahi/service-kit';
import { parseMoney, parseQty, taxMultiplier } from '../common';

/** Specs of one product (a category defines a handful). */
const MAX_SPECS = 50;

type Body = Record<string, unknown>;

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** A required text field: 400 naming it when missing or blank. */
export function need(body: Body, key: string, label: string, max = 120): string {
  const v = text(body[key]);
  if (!v) throw new BadRequestException(`${label} is required.`);
  if (v.length > max) throw new BadRequestException(`${label} can be at most ${max} characters.`);
  return v;
}
export function optional(body: Body, key: string, label: string, max = 60): string | undefined {
  if (body[key] === undefined || body[key] === null) return undefined;
  const v = text(body[key]);
  if (v.length > max) throw new BadRequestException(`${label} can be at most ${max} characters.`);
  return v;
}
export function categoryId(body: Body, key = 'catagory'): number {
  const v = body[key];
  const raw = typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v;
  const s = text(raw);
  if (!s || s === 'null') throw new BadRequestException('Category is required.');
  if (!/^\d+$/.test(s) || Number(s) > Limits.maxId) throw new BadRequestException('Category must be a category id.');
  return Number(s);
}

const KNOWN_CREATE = ['catagory', 'brand_name', 'name', 'mrp', 'cp', 'unit', 'per_peice_quantity', 'barcode', 'hsn_code', 'tax', 'price_includes_tax', 'rates', 'supply_type', 'opening_stock', 'min_stock', 'default_stock'];
const KNOWN_EDIT = [
  'product_id', 'catagory', 'active', 'quantity_per_peice', 'per_peice_quantity', 'brand_name', 'name', 'mrp', 'cp', 'stock',
  'min_stock', 'default_stock', 'tax', 'unit', 'barcode', 'hsn_code', 'price_includes_tax', 'specs', 'spec_1', 'spec_2', 'spec_3',
  'rates', 'supply_type',
];
function unknownFields(body: Body, known: string[]) {
  const extra = Object.keys(body).filter((k) => !known.includes(k));
  if (extra.length) throw new BadRequestException(`Unknown field${extra.length > 1 ? 's' : ''}: ${extra.join(', ')}.`);
}

export interface CreateInput {
  category: number;
  brand_name: string;
  product_name: string;
  mrp_p: number;
  cp_p: number;
  unit: string;
  ppq_m: number;
  barcode: string;
  hsn_code: string;
  tax: string;
  /** undefined when not sent: true on create, unchanged on edit. */
  price_includes_tax: boolean | undefined;
  /** GSTR-1 Table 8 (@bahi/gst SUPPLY_TYPES); undefined when not sent: taxable on create, unchanged on edit. */
  supply_type: SupplyType | undefined;
  /** Create only: the opening stock (an adjustment movement), minimum and default stock, in milli-units. */
  opening_m: number;
  min_m: number;
  def_m: number;
}

/** supply_type as sent: one of taxable, nil, exempt, non_gst (its rate is checked with the company's mode). */
function supplyType(body: Body): SupplyType | undefined {
  if (body.supply_type === undefined || body.supply_type === null || body.supply_type === '') return undefined;
  try {
    return parseSupplyType(body.supply_type);
  } catch (err) {
    if (err instanceof GstError) throw new BadRequestException(err.message);
    throw err;
  }
}

/** A yes/no form field: true/false, "true"/"false", 1/0, "1"/"0"; absent or empty -> undefined. */
export function yesNo(body: Body, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  throw new BadRequestException(`${key} must be true or false.`);
}

/** POST /createNewProduct: every field of 001 section 5 is required; quantity per piece defaults to 1. */
export function parseCreate(body: Body): CreateInput {
  if (!body || typeof body !== 'object') throw new BadRequestException('Send the product as a JSON object.');
  unknownFields(body, KNOWN_CREATE);
  const category = categoryId(body);
  const brand_name = need(body, 'brand_name', 'Brand');
  const product_name = need(body, 'name', 'Product name');
  if (text(body.mrp) === '') throw new BadRequestException('MRP is required.');
  if (text(body.cp) === '') throw new BadRequestException('Cost price is required.');
  const mrp_p = parseMoney('MRP', body.mrp);
  const cp_p = parseMoney('Cost price', body.cp);
  const unit = need(body, 'unit', 'Unit', 20);
  const ppqRaw = body.per_peice_quantity === undefined || text(body.per_peice_quantity) === '' ? '1' : body.per_peice_quantity;
  const ppq_m = parseQty('Quantity per piece', ppqRaw, { positive: true });
  return {
    category,
    brand_name,
    product_name,
    mrp_p,
    cp_p,
    unit,
    ppq_m,
    barcode: optional(body, 'barcode', 'Barcode', 40) ?? '',
    hsn_code: optional(body, 'hsn_code', 'HSN code', 12) ?? '',
    tax: body.tax === undefined || body.tax === '' ? '1' : taxMultiplier(body.tax),
    price_includes_tax: yesNo(body, 'price_includes_tax'),
    supply_type: supplyType(body),
    opening_m: text(body.opening_stock) === '' ? 0 : parseQty('Opening stock', body.opening_stock),
    min_m: text(body.min_stock) === '' ? 0 : parseQty('Minimum stock', body.min_stock),
    def_m: text(body.default_stock) === '' ? 0 : parseQty('Default stock', body.default_stock),
  };
}

export interface EditInput extends CreateInput {
  product_id: number;
  active: number;
  stock_m: number | undefined;
  min_m: number;
  def_m: number;
  specs: Record<string, string> | undefined;
  labelSpecs: (string | undefined)[];
}

/** POST /editProduct: the form's fields; tax is the percent as shown (18), stored as 1.18. */
export function parseEdit(body: Body): EditInput {
  if (!body || typeof body !== 'object') throw new BadRequestException('Send the product as a JSON object.');
  unknownFields(body, KNOWN_EDIT);
  const idRaw = text(body.product_id);
  if (!/^\d+$/.test(idRaw) || Number(idRaw) > Limits.maxId) throw new BadRequestException('product_id must be a product id.');
  const ppq = body.quantity_per_peice ?? body.per_peice_quantity;
  const base = parseCreate({
    catagory: body.catagory,
    brand_name: body.brand_name,
    name: body.name,
    mrp: body.mrp,
    cp: body.cp,
    unit: body.unit,
    per_peice_quantity: ppq,
    ...(body.barcode !== undefined ? { barcode: body.barcode } : {}),
    ...(body.hsn_code !== undefined ? { hsn_code: body.hsn_code } : {}),
    ...(body.price_includes_tax !== undefined ? { price_includes_tax: body.price_includes_tax } : {}),
    ...(body.supply_type !== undefined ? { supply_type: body.supply_type } : {}),
  });
  const activeS = text(body.active);
  const active = activeS === '' ? 1 : activeS === '1' || activeS === 'true' ? 1 : activeS === '0' || activeS === 'false' ? 0 : NaN;
  if (Number.isNaN(active)) throw new BadRequestException('active must be 1 or 0.');
  const qty = (k: string, label: string) => (text(body[k]) === '' ? 0 : parseQty(label, body[k]));
  let specs: Record<string, string> | undefined;
  if (body.specs !== undefined && body.specs !== null) {
    if (typeof body.specs !== 'object' || Array.isArray(body.specs)) throw new BadRequestException('specs must be an object of spec name to value.');
    specs = {};
    const entries = Object.entries(body.specs as Body);
    if (entries.length > MAX_SPECS) throw new BadRequestException(`specs can hold at most ${MAX_SPECS} entries.`);
    for (const [k, v] of entries) {
      if (k.length > 60) throw new BadRequestException('A spec name can be at most 60 characters.');
      const s = text(v);
      if (s.length > 60) throw new BadRequestException(`Spec ${k} can be at most 60 characters.`);
      specs[k] = s;
    }
  }
  return {
    ...base,
    barcode: optional(body, 'barcode', 'Barcode', 40) ?? '',
    hsn_code: optional(body, 'hsn_code', 'HSN code', 12) ?? '',
    product_id: Number(idRaw),
    active,
    tax: text(body.tax) === '' ? '1' : taxMultiplier(body.tax),
    stock_m: text(body.stock) === '' ? undefined : parseQty('Stock', body.stock, { allowNegative: true }),
    min_m: qty('min_stock', 'Minimum stock'),
    def_m: qty('default_stock', 'Default stock'),
    specs,
    labelSpecs: ['spec_1', 'spec_2', 'spec_3'].map((k) => optional(body, k, k, 60)),
  };
}
