/**
 * The reorder list (managers, purchase area): active products at or below their minimum stock,
 * with a suggested quantity, grouped by the distributor each was last bought from.
 * Quantities travel as decimal strings; a product with min_stock 0 has no minimum and is never listed.
 */

/** One product to reorder (GET /reorderList). */
export interface ReorderLine {
  product_id: number;
  product_name: string;
  brand_name: string;
  unit: string;
  /** Units in one piece (pack) of the product: what one cart quantity brings into stock. */
  per_peice_quantity: string;
  /** In units, as the product list shows it; may be negative. */
  stock: string;
  min_stock: string;
  default_stock: string;
  /** The product's cost price now. */
  cp: string;
  /** The rate of the latest completed purchase line of the product; null when never bought. */
  last_cp: string | null;
  /** YYYY-MM-DD of that purchase; null when never bought. */
  last_purchase_date: string | null;
  last_purchase_id: number | null;
  /** Whole pieces to buy (the cart's quantity): ceil((max(default, min) - stock) / per_peice_quantity), at least 1. */
  suggested_quantity: string;
  /** suggested_quantity x per_peice_quantity: the units that come into stock. */
  suggested_units: string;
}

/** The products last bought from one distributor; distributorId 0 is the "No purchase yet" group. */
export interface ReorderGroup {
  distributorId: number;
  distributorName: string;
  lines: ReorderLine[];
}

export interface GetReorderListReply {
  /** Distributors by name, the "No purchase yet" group last; lines by product name. */
  groups: ReorderGroup[];
  /** How many products in all. */
  count: number;
}

/** POST /reorderList/fillCart: appends the lines to the caller's cart (a product already there gets the quantity added). */
export interface FillCartRequest {
  cart_no: number;
  lines: { product_id: number; quantity: string }[];
}
export interface FillCartReply {
  success: true;
  cart_no: number;
  /** Lines added or increased. */
  added: number;
}

/** Most lines one fill or one printed list takes. */
export const REORDER_MAX_LINES = 500;

/** documents -> inventory: one distributor's group of the reorder list (GET /documents/reorder/{distributorId}?products=1,2). */
export interface ReorderDocumentRequest {
  companyId: number;
  /** 0: the "No purchase yet" group. */
  distributorId: number;
  /** Only these products of the group (the selection); all of the group when absent. */
  productIds?: number[];
}
/** null when the group has no products to reorder. */
export type ReorderDocument = ReorderGroup & { date: string };

declare module './subjects' {
  interface SubjectPayloads {
    'inventory.reorder.document': ReorderDocumentRequest;
  }
  interface SubjectReplies {
    'inventory.reorder.document': ReorderDocument | null;
  }
}
