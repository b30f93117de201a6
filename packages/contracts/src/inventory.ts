/**
 * Inventory: products, categories, stock movements (spec 001 sections 3 and 7), and what other
 * services ask inventory over NATS. Money and quantities travel as decimal strings.
 */

/** Stock level filter of the product lists: 0 Low (stock <= min_stock), 1 On, 2 High (stock >= default_stock). */
export type StockLevel = 0 | 1 | 2;

/** A product as other services see it (cart line, bill line, purchase line). */
export interface ProductSnapshot {
  product_id: number;
  product_name: string;
  brand_name: string;
  category: { id: number; name: string } | null;
  mrp: string;
  cp: string;
  unit: string;
  per_peice_quantity: string;
  stock: string;
  /** Multiplier, e.g. "1.18" for 18 percent. */
  tax: string;
  /** The same rate in percent ("18"): the product's GST rate in GST mode (in force today). */
  tax_percent: string;
  /** The rate history (@bahi/gst parseRates: steps in date order) when the product has one; a sale takes the rate in force on its date. */
  rates?: { rate: string; from: string }[];
  /** Whether mrp includes the tax (true unless the product says otherwise; an Indian MRP does). */
  price_includes_tax: boolean;
  /** HSN code: '' when none; 4, 6 or 8 digits when set in GST or composition mode. */
  hsn_code: string;
  /** GSTR-1 Table 8: taxable (default), nil, exempt or non_gst; a sale freezes it on its GST line. */
  supply_type?: 'taxable' | 'nil' | 'exempt' | 'non_gst';
  barcode: string;
  active: 0 | 1;
}

/** One entry of the cart's product suggestions (spec 000: id, name, stock and MRP). */
export interface ProductSuggestion {
  product_id: number;
  product_name: string;
  stock: string;
  mrp: string;
}

/**
 * What a stock change comes from. In: purchase, sale-return (a credit note), sale-cancel (a
 * cancelled bill: its lines come back). Out: sale, purchase-return (a debit note). The
 * `*-reversal` kinds are what a reverse writes; adjustment is signed.
 */
export type StockSourceKind =
  | 'sale'
  | 'purchase'
  | 'sale-reversal'
  | 'purchase-reversal'
  | 'adjustment'
  | 'sale-return'
  | 'purchase-return'
  | 'sale-cancel'
  | 'sale-return-reversal'
  | 'purchase-return-reversal'
  | 'sale-cancel-reversal';

/** The document a stock change comes from; one source is applied at most once. */
export interface StockSource {
  kind: StockSourceKind;
  id: number;
}

export interface StockLineRequest {
  product_id: number;
  /** Positive decimal string in the product's unit; the source kind decides in or out (adjustment: signed). */
  quantity: string;
  /** Rupees per unit, decimal string. */
  rate: string;
}

export interface StockMovement {
  product_id: number;
  kind: StockSourceKind;
  source: StockSource;
  line: number;
  /** Signed change: negative = out. */
  quantity: string;
  rate: string;
  /** Stock after this movement (may be negative). */
  stock: string;
  date: string;
}

export interface StockApplyRequest {
  companyId: number;
  source: StockSource;
  /** ISO date of the document; defaults to now. */
  date?: string;
  lines: StockLineRequest[];
}

export interface StockApplyReply {
  /** false when this source was already applied (a retried message); movements are then the earlier ones. */
  applied: boolean;
  movements: StockMovement[];
  /** Products whose stock is now below zero, so the counter can warn. */
  negativeStock: number[];
}

export interface StockReverseRequest {
  companyId: number;
  source: StockSource;
}

export interface StockReverseReply {
  /** false when the source was never applied or was already reversed. */
  reversed: boolean;
}

export interface ProductLookupRequest {
  companyId: number;
  /** Product id or barcode, as typed at the counter. Only active products are found. */
  code: string;
}

export interface ProductManyRequest {
  companyId: number;
  productIds: number[];
}

export interface ProductSuggestRequest {
  companyId: number;
  /** Empty: the first page of active products; otherwise id prefix, name words or barcode. */
  text?: string;
  limit?: number;
}

// ---- HTTP replies the spec leaves "not shown" (documented in services/inventory/README.md) ----

export interface CategoryRow {
  id: number;
  name: string;
  belongs_to: number | null;
  belongs_to_name: string;
}

/** GET /getCategoryList[?pageNo] */
export interface CategoryListReply {
  categoryList: CategoryRow[];
  noOfPages: number;
}

/** POST /catagory/add */
export interface CategoryAddReply {
  success: boolean;
  id: number;
  message: string;
}

/** GET /getLabelDetails/{id} */
export interface LabelDetailsReply {
  product: {
    product_id: number;
    product_name: string;
    brand_name: string;
    mrp: string;
    unit: string;
    per_peice_quantity: string;
    barcode: string;
    stock: string;
  };
  category: { id: number; name: string } | null;
  /** Up to 3 label features in print order, with the product's value. */
  features: { field_name: string; alias: string; value: string }[];
  /** What the CODE128 barcode encodes: the barcode, or the product id. */
  code: string;
}
