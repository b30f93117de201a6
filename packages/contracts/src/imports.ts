/**
 * Imports (products, customers, distributors from CSV or XLSX) and list exports.
 *
 * Import: POST /imports/{kind} (multipart, field `file`) -> ImportUploadReply; POST
 * /imports/{kind}/{id}/validate {mapping} -> ImportReport; POST /imports/{kind}/{id}/run
 * {mapping, mode} -> ImportStatus (202, runs on); GET /imports/{kind}/{id} -> ImportStatus (poll
 * for the progress bar). Managers only. A session lives ImportSessionTtlHours after its upload.
 *
 * Export: GET /export/{list}?format=csv|xlsx&<the list's own filters> streams the whole filtered
 * list (not one page) as a download; the list calls themselves are unchanged.
 */

export type ImportKind = 'products' | 'customers' | 'distributors';
export const ImportKinds: readonly ImportKind[] = ['products', 'customers', 'distributors'];

/** Largest upload an import takes (bytes). */
export const ImportMaxBytes = 20 * 1024 * 1024;
/** Rows one import takes at most. */
export const ImportMaxRows = 100_000;
export const ImportSessionTtlHours = 24;

/** A field an import fills: `key` is what mapping names; `aliases` are header names guessed. */
export interface ImportFieldDef {
  key: string;
  label: string;
  required?: boolean;
  aliases?: string[];
}

/** Field key -> 0-based column of the file (-1 or absent: not imported). */
export type ImportMapping = Record<string, number>;

/** 'valid': import the valid rows, skip the rest; 'all': nothing unless every row is valid. */
export type ImportMode = 'valid' | 'all';

export interface ImportUploadReply {
  id: string;
  kind: ImportKind;
  fileName: string;
  format: 'csv' | 'xlsx';
  headers: string[];
  /** Rows after the header (empty rows not counted). */
  total: number;
  fields: ImportFieldDef[];
  mapping: ImportMapping;
  /** The first 10 rows: their number in the file and their cells. */
  preview: { row: number; values: string[] }[];
  /** How rows match what exists (re-import updates instead of adding). */
  matchBy: string;
}

export interface ImportRowError {
  /** The row's number in the file (the header is row 1 in most files). */
  row: number;
  field: string;
  reason: string;
}

export interface ImportReport {
  total: number;
  valid: number;
  invalid: number;
  /** Valid rows that will update an existing record (same barcode / mobile / GSTIN or name+city). */
  updates: number;
  /** Row errors, at most ImportReportMaxErrors; `invalid` counts them all. */
  errors: ImportRowError[];
  /** Names that do not exist yet and will be created (product categories). */
  creates?: string[];
}
export const ImportReportMaxErrors = 1000;

export type ImportState = 'uploaded' | 'running' | 'done' | 'failed';

export interface ImportStatus {
  id: string;
  kind: ImportKind;
  state: ImportState;
  mode: ImportMode | null;
  /** Rows gone through of `total`. */
  done: number;
  total: number;
  created: number;
  updated: number;
  skipped: number;
  /** Why a run stopped (state 'failed'), or why an all-or-nothing run imported nothing. */
  message: string | null;
  report: ImportReport | null;
}

/** The lists that export, the service answering each, and the list call whose filters apply. */
export const ExportLists = {
  products: { service: 'inventory', list: 'GET /getProductList' },
  stockBook: { service: 'inventory', list: 'GET /getProductListForStockBook' },
  customers: { service: 'ledger', list: 'GET /getClientsList' },
  distributors: { service: 'ledger', list: 'GET /getDistributorsList' },
  purchases: { service: 'inventory', list: 'GET /getPurchaseList' },
  sales: { service: 'sales', list: 'GET /getSaleList' },
  creditNotes: { service: 'sales', list: 'GET /getCreditNoteList' },
  estimates: { service: 'sales', list: 'GET /getEstimateList' },
  debitNotes: { service: 'inventory', list: 'GET /getDebitNoteList' },
  customerHistory: { service: 'ledger', list: 'GET /getAllClientsHistory' },
  distributorHistory: { service: 'ledger', list: 'GET /distributorsHistory' },
} as const;
export type ExportList = keyof typeof ExportLists;
