import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { ReactElement } from 'react';
import { BillFormats, DocumentSubjects as S, type BillFormat, type DocumentKind, type PayloadOf, type Position, type ReplyOf, type SaleDocument, type Subject } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import { barcodeSvg, qrSvg, upiUri, type Code } from '../render/codes';
import { ReceiptTemplate, StatementTemplate, statementRowsPerPage } from '../templates/account-docs';
import type { CompanyView, PageSize } from '../templates/model';
import { A4, BILL_SIZE } from '../templates/model';
import { billFigures, BillTemplate, ChallanTemplate, EstimateTemplate } from '../templates/sale-docs';
import { gstAccount, INVOICE_COPIES, TaxInvoiceTemplate, type InvoiceCopy } from '../templates/tax-invoice';
import { arrangeRows, LABEL_ROLLS, labelsPerPage, LabelsTemplate, RollLabelsTemplate, StockBookTemplate, type LabelView } from '../templates/stock-docs';
import { reorderKind } from '../templates/reorder-doc';
import { reportKind } from '../templates/report-doc';
import { registerKind } from '../templates/register-doc';
import { THERMAL_ROLLS, ThermalBillTemplate, thermalSize, ThermalTaxInvoiceTemplate, type ThermalFormat } from '../templates/thermal';
import { creditNoteView, debitNoteView, NoteTemplate, noteSize } from '../templates/note-docs';
import { tOf } from '../i18n';
import { companyFor } from './company';

/** Asks the owning service (NATS request-reply in production). */
export type Ask = <T extends Subject>(subject: T, payload: PayloadOf<T>) => Promise<ReplyOf<T>>;

/** Where a document's data comes from: the owning services, and the company header. */
export interface DocumentSources {
  ask: Ask;
  company(companyId: number): Promise<CompanyView>;
  /** Today, YYYY-MM-DD (printed on statements and stock books). */
  today(): string;
}

export type Query = Record<string, string | undefined>;

export interface DocumentRequest {
  companyId: number;
  id: string | undefined;
  query: Query;
  /** The caller (token), for kinds whose owner answers per user (a cashier's register session). */
  user?: { id: number; position: Position };
}

/** What a kind produces: the page to print and the file name it is served as. */
export interface PreparedDocument {
  element: ReactElement;
  size: PageSize;
  fileName: string;
  /** Thermal rolls: the page height is measured from the content (size.heightMm is only the layout's start). */
  fitHeight?: boolean;
}

export interface DocumentKindDef {
  kind: DocumentKind;
  /** True when the path carries an id (`/documents/bill/7`); stockbook takes only a query. */
  needsId: boolean;
  /** Positions allowed, as the owner of the data allows them (every position when absent). */
  positions?: readonly Position[];
  prepare(req: DocumentRequest, src: DocumentSources): Promise<PreparedDocument>;
}

/**
 * Every count that sizes a render is checked against these before anything is allocated
 * (README "Limits"): a count from the URL or from the owner's data never grows an array past them.
 */
export const LIMITS = {
  /** Labels in one PDF (product labels and purchase labels): 100 stock book pages, 30 purchase pages. */
  labels: 1200,
  /** Products named in `packets=`. */
  packetProducts: 200,
  /** Statement entries in one PDF: 100 pages of 27 rows. */
  statementRows: 100 * statementRowsPerPage(),
  /** Ids in the stock book's `order=` (the inventory prints at most 2000 rows). */
  stockBookRows: 2000,
  /** Lines of a bill, challan or estimate. */
  billLines: 1000,
  /** Lines of a bill on a thermal roll (one page of about 2 m of paper). */
  thermalLines: 300,
} as const;
const MAX_LABELS = LIMITS.labels;

function positiveId(raw: string | undefined, what: string): number {
  if (raw === undefined || !/^\d{1,9}$/.test(raw) || Number(raw) <= 0) {
    throw new BadRequestException(`${what} must be a positive whole number.`);
  }
  return Number(raw);
}

function optionalInt(raw: string | undefined, name: string, min: number, max: number): number | null {
  if (raw === undefined || raw === '') return null;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new BadRequestException(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return Number(raw);
}

function notFound(what: string): never {
  throw new NotFoundException(`${what} was not found.`);
}

function boundLines(what: string, lines: unknown[]): void {
  if (lines.length > LIMITS.billLines) throw new BadRequestException(`${what} has ${lines.length} lines; at most ${LIMITS.billLines} can be printed.`);
}

/** The UPI QR of an amount due, when the company has a UPI id and something is due. */
async function upiQr(company: CompanyView, amount: string, note: string): Promise<Code | null> {
  if (!company.upiId || !Money.money(amount).greaterThan(0)) return null;
  const am = Money.round2(amount).toFixed(2);
  return qrSvg(upiUri({ upiId: company.upiId, payeeName: company.name, amount: am, note }));
}

/** `format=` of the bill: a5 (A4 tax invoice in GST mode), thermal-80 or thermal-58; absent: the company's bill_format. */
function billFormat(raw: string | undefined): BillFormat | null {
  if (raw === undefined || raw === '') return null;
  if (!(BillFormats as readonly string[]).includes(raw)) throw new BadRequestException(`format must be one of ${BillFormats.join(', ')}.`);
  return raw as BillFormat;
}

/**
 * `copy=original|duplicate|triplicate` or `copies=all` (Rule 48); null when neither is given (the
 * original, as before). Copies are marked on the A4 tax invoice only.
 */
function invoiceCopies(q: { copy?: string; copies?: string }): InvoiceCopy[] | null {
  if (q.copy !== undefined && q.copies !== undefined) throw new BadRequestException('Give copy or copies=all, not both.');
  if (q.copies !== undefined) {
    if (q.copies !== 'all') throw new BadRequestException('copies must be all (the original, duplicate and triplicate in one PDF).');
    return [...INVOICE_COPIES];
  }
  if (q.copy === undefined) return null;
  if (!(INVOICE_COPIES as readonly string[]).includes(q.copy)) throw new BadRequestException(`copy must be one of ${INVOICE_COPIES.join(', ')}.`);
  return [q.copy as InvoiceCopy];
}

/** A bill on a 58 or 80 mm roll, one page whose height is fitted to the content. */
async function thermalBill(format: ThermalFormat, company: CompanyView, sale: SaleDocument): Promise<PreparedDocument> {
  const saleId = sale.sale_id;
  if (sale.soldProducts.length > LIMITS.thermalLines) {
    throw new BadRequestException(`Bill ${saleId} has ${sale.soldProducts.length} lines; at most ${LIMITS.thermalLines} fit one thermal receipt. Print it with format=a5.`);
  }
  const fileName = `bill-${saleId}-${THERMAL_ROLLS[format].suffix}.pdf`;
  if (sale.gst) {
    const account = gstAccount(sale, sale.gst);
    const upi = await upiQr(company, account.dueRounded, `Invoice ${sale.gst.invoice_no}`);
    return { element: <ThermalTaxInvoiceTemplate format={format} company={company} sale={sale} gst={sale.gst} account={account} upi={upi} />, size: thermalSize(format), fileName, fitHeight: true };
  }
  const figures = billFigures(sale);
  const upi = await upiQr(company, figures.dueRounded, `Bill ${saleId}`);
  return { element: <ThermalBillTemplate format={format} company={company} sale={sale} figures={figures} upi={upi} />, size: thermalSize(format), fileName, fitHeight: true };
}

const bill: DocumentKindDef = {
  kind: 'bill',
  needsId: true,
  async prepare(req, src) {
    const saleId = positiveId(req.id, 'The bill number');
    const asked = billFormat(req.query.format);
    const copies = invoiceCopies(req.query);
    const [company, sale] = await Promise.all([companyFor(req, src), src.ask(S.saleDocument, { companyId: req.companyId, saleId })]);
    if (!sale) notFound(`Bill ${saleId}`);
    boundLines(`Bill ${saleId}`, sale.soldProducts);
    const format = asked ?? company.billFormat ?? 'a5';
    if (copies && !sale.gst) throw new BadRequestException(`Bill ${saleId} is not a GST tax invoice; copies (Rule 48) are printed for tax invoices only.`);
    // An explicit copy is the A4 tax invoice whatever the company's roll format.
    if (format !== 'a5' && !(copies && !asked)) {
      if (copies) throw new BadRequestException('Copies (Rule 48) are printed on the A4 tax invoice; leave format out or give format=a5.');
      return thermalBill(format, company, sale);
    }
    if (sale.gst) {
      // GST mode: the frozen tax invoice (or bill of supply) on A4; the previous due stays outside the invoice value.
      const account = gstAccount(sale, sale.gst);
      const upi = await upiQr(company, account.dueRounded, `Invoice ${sale.gst.invoice_no}`);
      const suffix = !copies ? '' : copies.length > 1 ? '-copies' : `-${copies[0]}`;
      return { element: <TaxInvoiceTemplate company={company} sale={sale} gst={sale.gst} account={account} upi={upi} copies={copies ?? undefined} />, size: A4, fileName: `bill-${saleId}${suffix}.pdf` };
    }
    const figures = billFigures(sale);
    const upi = await upiQr(company, figures.dueRounded, `Bill ${saleId}`);
    return { element: <BillTemplate company={company} sale={sale} figures={figures} upi={upi} />, size: BILL_SIZE, fileName: `bill-${saleId}.pdf` };
  },
};

const challan: DocumentKindDef = {
  kind: 'challan',
  needsId: true,
  async prepare(req, src) {
    const saleId = positiveId(req.id, 'The bill number');
    const [company, sale] = await Promise.all([companyFor(req, src), src.ask(S.saleDocument, { companyId: req.companyId, saleId })]);
    if (!sale) notFound(`Bill ${saleId}`);
    boundLines(`Bill ${saleId}`, sale.soldProducts);
    return { element: <ChallanTemplate company={company} sale={sale} />, size: BILL_SIZE, fileName: `challan-${saleId}.pdf` };
  },
};

const estimate: DocumentKindDef = {
  kind: 'estimate',
  needsId: true,
  async prepare(req, src) {
    const estimateId = positiveId(req.id, 'The estimate number');
    const [company, est] = await Promise.all([companyFor(req, src), src.ask(S.estimateDocument, { companyId: req.companyId, estimateId })]);
    if (!est) notFound(`Estimate ${estimateId}`);
    boundLines(`Estimate ${estimateId}`, est.lines);
    return { element: <EstimateTemplate company={company} estimate={est} />, size: BILL_SIZE, fileName: `estimate-${estimateId}.pdf` };
  },
};

const receipt: DocumentKindDef = {
  kind: 'receipt',
  needsId: true,
  async prepare(req, src) {
    const paymentId = positiveId(req.id, 'The receipt number');
    const [company, r] = await Promise.all([companyFor(req, src), src.ask(S.receiptDocument, { companyId: req.companyId, paymentId })]);
    if (!r) notFound(`Receipt ${paymentId}`);
    const upi = await upiQr(company, String(r.due), `Due of customer ${r.client_id}`);
    return { element: <ReceiptTemplate company={company} receipt={r} upi={upi} />, size: BILL_SIZE, fileName: `receipt-${paymentId}.pdf` };
  },
};

const statement: DocumentKindDef = {
  kind: 'statement',
  needsId: true,
  async prepare(req, src) {
    const clientId = positiveId(req.id, 'The customer id');
    const [company, st] = await Promise.all([companyFor(req, src), src.ask(S.customerStatement, { companyId: req.companyId, clientId, maxRows: LIMITS.statementRows })]);
    if (!st) notFound(`Customer ${clientId}`);
    // The ledger sends no rows past maxRows, only their number.
    const entries = Math.max(st.entries ?? 0, st.rows.length);
    if (entries > LIMITS.statementRows) {
      const pages = LIMITS.statementRows / statementRowsPerPage();
      throw new BadRequestException(`The statement of customer ${clientId} has ${entries} entries; at most ${LIMITS.statementRows} (${pages} pages) can be printed at once.`);
    }
    return { element: <StatementTemplate company={company} statement={st} printedOn={src.today()} />, size: A4, fileName: `statement-${clientId}.pdf` };
  },
};

const stockbook: DocumentKindDef = {
  kind: 'stockbook',
  needsId: false,
  // Cost prices and the whole catalogue: the product area is the manager's.
  positions: ['manager'],
  async prepare(req, src) {
    const q = req.query;
    if (!q.category) throw new BadRequestException('Please Select A Category.');
    const category = positiveId(q.category, 'category');
    const stock = optionalInt(q.stock, 'stock', 0, 2) as 0 | 1 | 2 | null;
    const active = optionalInt(q.active, 'active', 0, 1) as 0 | 1 | null;
    const orderParts = (q.order ?? '').split(',', LIMITS.stockBookRows + 1).filter((s) => s !== '');
    if (orderParts.length > LIMITS.stockBookRows) throw new BadRequestException(`order can list at most ${LIMITS.stockBookRows} products.`);
    const order = orderParts.map((s) => positiveId(s, 'Every id of order'));
    const showCost = q.cost === '1' || q.cost === 'true';
    const [company, book] = await Promise.all([
      companyFor(req, src),
      src.ask(S.stockBook, { companyId: req.companyId, category, brand: q.brand || null, stock, active }),
    ]);
    if (book.list.length > LIMITS.stockBookRows) throw new BadRequestException(`Category ${category} has more than ${LIMITS.stockBookRows} products; choose a brand or a stock level to print fewer.`);
    const rows = arrangeRows(book.list, order);
    return {
      element: <StockBookTemplate company={company} book={book} rows={rows} showCost={showCost} printedOn={src.today()} />,
      size: A4,
      fileName: `stockbook-${category}.pdf`,
    };
  },
};

function quantity(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  if (!Money.isMoney(raw) || !Money.money(raw).greaterThan(0)) throw new BadRequestException('qty must be a number above 0.');
  return Money.money(raw).toFixed();
}

/** `size=50x25|38x25`: a label roll (one label a page); left out: the spec's A4 sheets. */
function rollSize(raw: string | undefined) {
  if (raw === undefined || raw === '') return null;
  const size = LABEL_ROLLS[raw];
  if (!size) throw new BadRequestException(`size must be ${Object.keys(LABEL_ROLLS).join(' or ')} (the label's width x height in mm), or left out for A4 sheets.`);
  return size;
}

/** A roll's CODE128: as wide as the label allows (the template scales it down to fit). */
const rollBarcode = (code: string) => barcodeSvg(code, { height: 30, width: 2, fontSize: 12 });

const labels: DocumentKindDef = {
  kind: 'labels',
  needsId: true,
  async prepare(req, src) {
    const productId = positiveId(req.id, 'The product id');
    const mode = req.query.mode ?? 'stockbook';
    if (mode !== 'stockbook' && mode !== 'packet') throw new BadRequestException("mode must be 'stockbook' or 'packet'.");
    const roll = rollSize(req.query.size);
    const count = optionalInt(req.query.count, 'count', 1, MAX_LABELS) ?? (roll ? 1 : labelsPerPage(mode));
    const qty = quantity(req.query.qty);
    const [company, details] = await Promise.all([companyFor(req, src), src.ask(S.labelDetails, { companyId: req.companyId, productId })]);
    if (!details) notFound(`Product ${productId}`);
    if (roll) {
      const one: LabelView = { details, quantity: qty, barcode: rollBarcode(details.code), qr: null };
      return {
        element: <RollLabelsTemplate company={company} labels={Array.from({ length: count }, () => one)} size={roll} title={`Labels ${productId}`} />,
        size: roll,
        fileName: `labels-${productId}-${req.query.size}.pdf`,
      };
    }
    const barcode = barcodeSvg(details.code, mode === 'packet' ? { height: 22, width: 1.2, fontSize: 9 } : { height: 36, width: 1.6, fontSize: 11 });
    const one: LabelView = { details, quantity: qty, barcode, qr: null };
    return {
      element: <LabelsTemplate company={company} labels={Array.from({ length: count }, () => one)} layout={mode} title={`Labels ${productId}`} />,
      size: A4,
      fileName: `labels-${productId}.pdf`,
    };
  },
};

/** `packets=12:5,13:0` overrides the packets of products 12 and 13 (0 leaves a product out). */
function packetOverrides(raw: string | undefined): Map<number, number> {
  const out = new Map<number, number>();
  const parts = (raw ?? '').split(',', LIMITS.packetProducts + 1).filter(Boolean);
  if (parts.length > LIMITS.packetProducts) throw new BadRequestException(`packets can name at most ${LIMITS.packetProducts} products.`);
  for (const part of parts) {
    const m = /^(\d{1,9}):(\d+)$/.exec(part);
    if (!m) throw new BadRequestException("packets must look like '12:5,13:2' (product id : number of labels).");
    const n = Number(m[2]);
    if (n > MAX_LABELS) throw new BadRequestException(`Product ${m[1]} can get at most ${MAX_LABELS} labels (packets=${m[1]}:${m[2]} asks for ${m[2]}).`);
    out.set(Number(m[1]), n);
  }
  return out;
}

const purchaseLabels: DocumentKindDef = {
  kind: 'purchase-labels',
  needsId: true,
  // Purchases are the manager's (inventory's purchases controller).
  positions: ['manager'],
  async prepare(req, src) {
    const purchaseId = positiveId(req.id, 'The purchase number');
    const overrides = packetOverrides(req.query.packets);
    const roll = rollSize(req.query.size);
    const [company, purchase] = await Promise.all([companyFor(req, src), src.ask(S.purchaseLabels, { companyId: req.companyId, purchaseId })]);
    if (!purchase) notFound(`Purchase ${purchaseId}`);
    const inPurchase = new Set(purchase.lines.map((l) => l.product.product_id));
    for (const id of overrides.keys()) {
      if (!inPurchase.has(id)) throw new BadRequestException(`packets names product ${id}, which is not in purchase ${purchaseId}.`);
    }
    // Count first, allocate after: the default packets come from the bought quantity, unbounded.
    const counts = purchase.lines.map((line) => {
      const n = overrides.get(line.product.product_id) ?? line.packets;
      return Number.isFinite(n) && n > 0 ? Math.floor(n) : n > 0 ? Infinity : 0;
    });
    const total = counts.reduce((a, b) => a + b, 0);
    if (total > MAX_LABELS) {
      throw new BadRequestException(`Purchase ${purchaseId} would print ${total} labels; at most ${MAX_LABELS} labels fit one PDF. Choose fewer with packets=<product id>:<labels>.`);
    }
    const views: LabelView[] = [];
    for (const [i, line] of purchase.lines.entries()) {
      const n = counts[i]!;
      if (n <= 0) continue;
      // A roll label is too short for the sheet's QR beside the text: it carries the CODE128 instead.
      const qr = roll ? null : await qrSvg(line.code);
      const barcode = roll ? rollBarcode(line.code) : null;
      const { packets: _packets, ...details } = line;
      for (let k = 0; k < n; k++) views.push({ details, quantity: line.product.per_peice_quantity, barcode, qr });
    }
    if (roll) {
      return {
        element: <RollLabelsTemplate company={company} labels={views} size={roll} title={`Purchase ${purchaseId} labels`} />,
        size: roll,
        fileName: `purchase-labels-${purchaseId}-${req.query.size}.pdf`,
      };
    }
    return {
      element: <LabelsTemplate company={company} labels={views} layout="purchase" title={`Purchase ${purchaseId} labels`} />,
      size: A4,
      fileName: `purchase-labels-${purchaseId}.pdf`,
    };
  },
};

const creditNote: DocumentKindDef = {
  kind: 'credit-note',
  needsId: true,
  async prepare(req, src) {
    const creditNoteId = positiveId(req.id, 'The credit note id');
    const [company, note] = await Promise.all([companyFor(req, src), src.ask(S.creditNoteDocument, { companyId: req.companyId, creditNoteId })]);
    if (!note) notFound(`Credit note ${creditNoteId}`);
    boundLines(`Credit note ${creditNoteId}`, note.lines);
    const view = creditNoteView(note, tOf(company));
    return { element: <NoteTemplate company={company} view={view} />, size: noteSize(view), fileName: `credit-note-${creditNoteId}.pdf` };
  },
};

const debitNote: DocumentKindDef = {
  kind: 'debit-note',
  needsId: true,
  // Purchases and their returns are the manager's (inventory).
  positions: ['manager'],
  async prepare(req, src) {
    const debitNoteId = positiveId(req.id, 'The debit note id');
    const [company, note] = await Promise.all([companyFor(req, src), src.ask(S.debitNoteDocument, { companyId: req.companyId, debitNoteId })]);
    if (!note) notFound(`Debit note ${debitNoteId}`);
    boundLines(`Debit note ${debitNoteId}`, note.lines);
    const view = debitNoteView(note, tOf(company));
    return { element: <NoteTemplate company={company} view={view} />, size: noteSize(view), fileName: `debit-note-${debitNoteId}.pdf` };
  },
};

export const DOCUMENT_KINDS: Record<DocumentKind, DocumentKindDef> = {
  bill,
  estimate,
  challan,
  receipt,
  statement,
  stockbook,
  labels,
  'purchase-labels': purchaseLabels,
  reorder: reorderKind,
  report: reportKind,
  register: registerKind,
  'credit-note': creditNote,
  'debit-note': debitNote,
};
