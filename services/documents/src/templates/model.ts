import type { BillFormat, Language } from '@bahi/contracts';

/** The company as printed on every document header. */
export interface CompanyView {
  id: number;
  name: string;
  add1: string;
  add2: string;
  mob1: string;
  mob2: string;
  email: string;
  /** The logo as a data: URI (pages load nothing else), or null. */
  logo: string | null;
  upiId: string | null;
  /** The company's default bill print format (identity's bill_format; 'a5' when absent). */
  billFormat?: BillFormat;
  /** The language its documents print in (identity's doc_language, or the request's ?lang=); 'en' when absent. */
  docLanguage?: Language;
  /** GST mode: the company's GSTIN and its state code (printed on credit and debit notes); absent in simple mode. */
  gstin?: string | null;
  stateCode?: string | null;
}

/** A page size in millimetres; the template's @page rule and page.pdf() both use it. */
export interface PageSize {
  widthMm: number;
  heightMm: number;
}

export const BILL_SIZE: PageSize = { widthMm: 210, heightMm: 148 };
export const A4: PageSize = { widthMm: 210, heightMm: 297 };
