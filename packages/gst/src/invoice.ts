import { amount, AmountInput, Decimal, fixed2, toPaisa } from './amount';
import { apportion } from './apportion';
import { GstError } from './errors';
import { toUqc } from './gstr1';
import { placeOfSupply } from './place-of-supply';
import { parseHsn, parseRate } from './rates';
import { roundOff } from './round-off';
import { parseState, stateTaxName } from './states';

/** Company setting: `simple` is the pre-GST flat tax the sales service computes itself. */
export type TaxMode = 'simple' | 'gst' | 'composition';

export interface SaleLineInput {
  mrp: AmountInput;
  /** Per piece, before tax, like the cart line's. */
  discount?: AmountInput;
  quantity: AmountInput;
  /** Pieces per quantity unit (the cart line's per_peice_quantity); 1 when absent. */
  per_peice_quantity?: AmountInput;
  /** GST rate in percent; required in gst mode, ignored in composition mode. */
  rate?: AmountInput;
  /** True when mrp already includes GST at `rate`. */
  priceIncludesTax?: boolean;
  hsn: string;
  /** The product's unit ('pcs', 'kg'...), mapped to a GSTR-1 UQC for the HSN summary. */
  unit?: string;
}

export interface InvoiceInput {
  mode: 'gst' | 'composition';
  companyState: string | number;
  customerGstin?: string | null;
  customerState?: string | number | null;
  lines: SaleLineInput[];
  /** Before tax, spread over the lines with the summary discount. */
  shipping?: AmountInput;
  discount?: AmountInput;
}

/** Every amount is a two-decimal string: exact, and what is printed. */
export interface ComputedLine {
  hsn: string;
  uqc: string;
  rate: string;
  /** quantity x per_peice_quantity: the units the HSN summary counts. */
  qty: string;
  gross: string;
  /** The line's own taxable value, before its share of shipping less discount. */
  lineTaxable: string;
  share: string;
  taxable: string;
  igst: string;
  cgst: string;
  sgst: string;
  total: string;
}

export interface ComputedInvoice {
  /** Tax invoice (Rule 46) in gst mode; bill of supply (Rule 49) in composition mode. */
  document: 'tax-invoice' | 'bill-of-supply';
  placeOfSupply: string;
  companyState: string;
  interState: boolean;
  /** Name of the state half of intra-state tax: UTGST in union territories without a legislature. */
  stateTaxName: 'SGST' | 'UTGST';
  registeredCustomer: boolean;
  lines: ComputedLine[];
  shipping: string;
  discount: string;
  taxable: string;
  igst: string;
  cgst: string;
  sgst: string;
  tax: string;
  /** taxable + tax, to the paisa. */
  exactTotal: string;
  roundOff: string;
  /** To the rupee (CGST Act s.170). */
  invoiceValue: string;
}

const ZERO = new Decimal(0);
const HUNDRED = new Decimal(100);
const sum = (xs: Decimal[]): Decimal => xs.reduce((s, x) => s.plus(x), ZERO);

function nonNegative(value: AmountInput | undefined, what: string): Decimal {
  const x = value === undefined ? ZERO : amount(value, what);
  if (x.isNegative()) throw new GstError(`The ${what} cannot be negative (${x.toFixed()}).`);
  return x;
}

function positive(value: AmountInput | undefined, what: string, fallback?: Decimal): Decimal {
  const x = value === undefined && fallback ? fallback : amount(value as AmountInput, what);
  if (!x.greaterThan(0)) throw new GstError(`The ${what} must be more than zero (${x.toFixed()}).`);
  return x;
}

// Names the line in a rate or HSN error, so the message points at the product to fix.
function onLine<T>(n: number, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof GstError ? new GstError(`Line ${n}: ${e.message}`) : e;
  }
}

/**
 * Computes a GST invoice (or a composition dealer's bill of supply) from sale lines.
 *  gross    = (mrp - discount) x quantity x per_peice_quantity
 *  taxable  = gross x 100 / (100 + rate) when the price includes tax, else gross; half-up to
 *             the paisa per line, then plus the line's share of (shipping - summary discount)
 *             (CGST Act s.15(2)(c) adds incidental charges, s.15(3)(a) takes off invoice discounts)
 *  intra-state: CGST = SGST = taxable x rate / 2 / 100, half-up to the paisa, per line
 *  inter-state: IGST = taxable x rate / 100, half-up to the paisa, per line
 *  invoice value = taxable + taxes, to the nearest rupee (round-off.ts).
 */
export function computeInvoice(input: InvoiceInput): ComputedInvoice {
  if (input.mode !== 'gst' && input.mode !== 'composition') {
    throw new GstError(`Tax mode '${String(input.mode)}' has no GST invoice; use gst or composition.`);
  }
  if (!Array.isArray(input.lines) || input.lines.length === 0) throw new GstError('An invoice needs at least one line.');
  const composition = input.mode === 'composition';
  const companyState = parseState(input.companyState);
  const pos = placeOfSupply({ customerGstin: input.customerGstin, customerState: input.customerState, companyState });
  const interState = pos !== companyState;
  // CGST Act s.10(2)(c): a composition taxpayer may not make inter-state supplies of goods.
  if (composition && interState) {
    throw new GstError(`A composition dealer cannot make an inter-state supply (place of supply ${pos}, company state ${companyState}).`);
  }

  const parsed = input.lines.map((line, i) => {
    const n = i + 1;
    const mrp = nonNegative(line.mrp, `mrp of line ${n}`);
    const discount = nonNegative(line.discount, `discount of line ${n}`);
    if (discount.greaterThan(mrp)) throw new GstError(`The discount of line ${n} (${discount.toFixed()}) is more than its mrp (${mrp.toFixed()}).`);
    const quantity = positive(line.quantity, `quantity of line ${n}`);
    const perPiece = positive(line.per_peice_quantity, `per_peice_quantity of line ${n}`, new Decimal(1));
    const rate = composition ? ZERO : onLine(n, () => parseRate(line.rate ?? 'missing'));
    const hsn = onLine(n, () => parseHsn(line.hsn));
    const gross = mrp.minus(discount).times(quantity).times(perPiece);
    const lineTaxable = toPaisa(line.priceIncludesTax && !composition ? gross.times(HUNDRED).dividedBy(HUNDRED.plus(rate)) : gross);
    return { hsn, uqc: toUqc(line.unit ?? 'other'), rate, qty: quantity.times(perPiece), gross, lineTaxable };
  });

  const shipping = toPaisa(nonNegative(input.shipping, 'shipping'));
  const discount = toPaisa(nonNegative(input.discount, 'summary discount'));
  const lineTotal = sum(parsed.map((l) => l.lineTaxable));
  if (discount.greaterThan(lineTotal.plus(shipping))) {
    throw new GstError(`The discount (${fixed2(discount)}) is more than the goods' taxable value plus shipping (${fixed2(lineTotal.plus(shipping))}).`);
  }
  const shares = apportion(shipping.minus(discount), parsed.map((l) => l.lineTaxable));

  const lines = parsed.map((l, i) => {
    const taxable = l.lineTaxable.plus(shares[i]);
    if (taxable.isNegative()) throw new GstError(`The discount leaves line ${i + 1} with a negative taxable value; lower the discount.`);
    const igst = interState ? toPaisa(taxable.times(l.rate).dividedBy(HUNDRED)) : ZERO;
    const half = interState ? ZERO : toPaisa(taxable.times(l.rate).dividedBy(2).dividedBy(HUNDRED));
    return { ...l, share: shares[i], taxable, igst, cgst: half, sgst: half, total: taxable.plus(igst).plus(half).plus(half) };
  });

  const taxable = sum(lines.map((l) => l.taxable));
  const igst = sum(lines.map((l) => l.igst));
  const cgst = sum(lines.map((l) => l.cgst));
  const sgst = sum(lines.map((l) => l.sgst));
  const tax = igst.plus(cgst).plus(sgst);
  const rounded = roundOff(taxable.plus(tax));
  return {
    document: composition ? 'bill-of-supply' : 'tax-invoice',
    placeOfSupply: pos,
    companyState,
    interState,
    stateTaxName: stateTaxName(pos),
    registeredCustomer: Boolean(input.customerGstin && String(input.customerGstin).trim()),
    lines: lines.map((l) => ({
      hsn: l.hsn,
      uqc: l.uqc,
      rate: l.rate.toFixed(),
      qty: l.qty.toFixed(),
      gross: fixed2(toPaisa(l.gross)),
      lineTaxable: fixed2(l.lineTaxable),
      share: fixed2(l.share),
      taxable: fixed2(l.taxable),
      igst: fixed2(l.igst),
      cgst: fixed2(l.cgst),
      sgst: fixed2(l.sgst),
      total: fixed2(l.total),
    })),
    shipping: fixed2(shipping),
    discount: fixed2(discount),
    taxable: fixed2(taxable),
    igst: fixed2(igst),
    cgst: fixed2(cgst),
    sgst: fixed2(sgst),
    tax: fixed2(tax),
    exactTotal: rounded.exact,
    roundOff: rounded.roundOff,
    invoiceValue: rounded.value,
  };
}
