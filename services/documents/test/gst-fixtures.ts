import type { Customer, GstParty, SaleDocument, SaleGst, SoldLine } from '@bahi/contracts';
import { computeInvoice, gstinCheckChar, stateName, stateTaxName, type SaleLineInput } from '@bahi/gst';
import { Money } from '@bahi/service-kit';
import { customer, walkIn } from './fixtures';

/**
 * GST sales as sales freezes them (packages/contracts/src/gst.ts), with real figures: every
 * SaleGst here is computed by @bahi/gst's computeInvoice, as sales' checkout does.
 */

/** Cart line ids as sales makes them: unique per company, not 1..n (the invoice prints positions). */
const lineId = (i: number) => 4101 + 7 * i;

/** The GST portal's example GSTIN (Maharashtra, 27). */
export const SUPPLIER_GSTIN = '27AAPFU0939F1ZV';
/** Gujarat (24), check character from packages/gst's test. */
export const GUJARAT_GSTIN = '24AAGCS5678K1ZT';
/** Maharashtra (27). */
export const MAHARASHTRA_GSTIN = '27AAACB1234C1ZF';
/** Karnataka (29). */
export const KARNATAKA_GSTIN = `29AAGCS5678K1Z${gstinCheckChar('29AAGCS5678K1Z')}`;
/** Chandigarh (04): a union territory without a legislature, so UTGST. */
export const CHANDIGARH_GSTIN = `04AAPFU0939F1Z${gstinCheckChar('04AAPFU0939F1Z')}`;

export interface GstLineSpec {
  name: string;
  mrp: string;
  disc?: string;
  quantity: string;
  per?: string;
  rate: string;
  incl: boolean;
  hsn: string;
  unit: string;
  /** GSTR-1 Table 8 supply type frozen on the line (rate '0'); taxable when missing. */
  supply?: 'nil' | 'exempt' | 'non_gst';
}

/** The worked example: 3 x 590.00 incl. 18 %, 2 x 100.00 excl. 12 % less 5.00 each. */
export const WORKED_LINES: GstLineSpec[] = [
  { name: 'Steam Iron 1200W', mrp: '590', quantity: '3', rate: '18', incl: true, hsn: '8516', unit: 'pcs' },
  { name: 'Plastic Storage Box', mrp: '100', disc: '5', quantity: '2', rate: '12', incl: false, hsn: '3924', unit: 'pcs' },
];

function party(name: string, address: string[], gstin: string | null, state: string | null, mobile = '', email = ''): GstParty {
  return { name, address, gstin, state_code: state, state_name: state ? stateName(state) : null, mobile, email };
}

export const SUPPLIER = party('Sharma Kirana Stores', ['12 MG Road', 'Andheri East, Mumbai 400069'], SUPPLIER_GSTIN, '27', '9876543210', 'sharma@example.in');

export interface GstSaleSpec {
  saleId: number;
  mode?: 'gst' | 'composition';
  supplier?: GstParty;
  /** null: the walk-in customer. */
  buyer: { name: string; address: string[]; gstin: string | null; state: string | null } | null;
  lines: GstLineSpec[];
  shipping?: string;
  discount?: string;
  previousDue?: string;
  paid?: string;
  invoiceNo?: string;
  date?: string;
}

/** A SaleDocument with its SaleGst, the way sales sends it over sales.sale.document. */
export function gstSale(spec: GstSaleSpec): SaleDocument {
  const mode = spec.mode ?? 'gst';
  const supplier = spec.supplier ?? SUPPLIER;
  const lineInputs: SaleLineInput[] = spec.lines.map((l) => ({
    mrp: l.mrp,
    discount: l.disc ?? '0',
    quantity: l.quantity,
    per_peice_quantity: l.per ?? '1',
    rate: l.rate,
    priceIncludesTax: l.incl,
    hsn: l.hsn,
    unit: l.unit,
  }));
  const inv = computeInvoice({
    mode,
    companyState: supplier.state_code!,
    customerGstin: spec.buyer?.gstin ?? null,
    customerState: spec.buyer?.state ?? null,
    lines: lineInputs,
    shipping: spec.shipping ?? '0',
    discount: spec.discount ?? '0',
  });
  const soldProducts: SoldLine[] = spec.lines.map((l, i) => {
    const price = Money.sub(l.mrp, l.disc ?? '0');
    return {
      sl_no: lineId(i),
      product_id: 100 + i,
      product_name: l.name,
      quantity: l.quantity,
      per_peice_quantity: l.per ?? '1',
      rate: l.mrp,
      disc: l.disc ?? '0',
      price: price.toFixed(),
      amount: price.times(l.quantity).times(l.per ?? '1').toFixed(),
      hsn_code: l.hsn,
      unit: l.unit,
    };
  });
  const date = spec.date ?? '2026-05-14';
  const recipient = spec.buyer
    ? party(spec.buyer.name, spec.buyer.address, spec.buyer.gstin, spec.buyer.gstin ? spec.buyer.gstin.slice(0, 2) : spec.buyer.state, '9123456780')
    : party('Walk-in customer', [], null, null);
  const gst: SaleGst = {
    tax_mode: mode,
    document: inv.document,
    invoice_no: spec.invoiceNo ?? 'GT/26-27/0001',
    fy: '26-27',
    serial: 1,
    invoice_date: date,
    supplier,
    recipient,
    b2b: Boolean(spec.buyer?.gstin),
    place_of_supply: inv.placeOfSupply,
    place_of_supply_name: stateName(inv.placeOfSupply),
    inter_state: inv.interState,
    state_tax_name: stateTaxName(inv.placeOfSupply),
    reverse_charge: false,
    lines: inv.lines.map((l, i) => ({
      sl_no: lineId(i),
      hsn_code: l.hsn,
      uqc: l.uqc,
      gst_rate: l.rate,
      ...(spec.lines[i]!.supply ? { supply_type: spec.lines[i]!.supply } : {}),
      price_includes_tax: mode === 'gst' && spec.lines[i]!.incl,
      qty: l.qty,
      line_taxable: l.lineTaxable,
      share: l.share,
      taxable_value: l.taxable,
      cgst: l.cgst,
      sgst: l.sgst,
      igst: l.igst,
    })),
    taxable_total: inv.taxable,
    cgst_total: inv.cgst,
    sgst_total: inv.sgst,
    igst_total: inv.igst,
    tax_total: inv.tax,
    exact_total: inv.exactTotal,
    round_off: inv.roundOff,
    invoice_value: inv.invoiceValue,
  };
  const buyerCustomer: Customer = spec.buyer
    ? { ...customer, id: 20 + spec.saleId, client_id: 20 + spec.saleId, name: spec.buyer.name, address_line_1: spec.buyer.address[0] ?? '', address_line_2: '', state: spec.buyer.state ?? '' }
    : walkIn;
  return {
    sale_id: spec.saleId,
    date,
    due_date: null,
    customer: buyerCustomer,
    soldProducts,
    subtotal: soldProducts.reduce((s, l) => s.plus(l.amount), Money.money(0)).toFixed(),
    tax: inv.tax,
    shipping: spec.shipping ?? '0',
    summery_discount: spec.discount ?? '0',
    previousDue: spec.buyer ? (spec.previousDue ?? '0') : '0',
    paid: spec.paid ?? '0',
    delivery: null,
    gst,
  };
}

const gujaratBuyer = { name: 'Patel Electricals', address: ['45 Relief Road', 'Ahmedabad 380001'], gstin: GUJARAT_GSTIN, state: '24' };

/** Bill 20: the worked example to a Gujarat buyer with a GSTIN (inter-state, B2B), 500.50 previously due, 1000 paid. */
export const interB2b = gstSale({ saleId: 20, buyer: gujaratBuyer, lines: WORKED_LINES, previousDue: '500.50', paid: '1000' });
/** Bill 21: the same cart to the walk-in customer (intra-state, CGST + SGST). */
export const intraWalkIn = gstSale({ saleId: 21, buyer: null, lines: WORKED_LINES, invoiceNo: 'GT/26-27/0002' });
/** Bill 22: a Maharashtra buyer with a GSTIN (intra-state, B2B) with shipping and a summary discount spread over the lines. */
export const intraB2b = gstSale({
  saleId: 22,
  buyer: { name: 'Bhosale Traders', address: ['7 Tilak Road', 'Pune 411002'], gstin: MAHARASHTRA_GSTIN, state: '27' },
  lines: WORKED_LINES,
  shipping: '40',
  discount: '21.50',
  invoiceNo: 'GT/26-27/0003',
});
/** Bill 23: an unregistered buyer in Karnataka (inter-state, B2C: place of supply from the recorded state). */
export const interB2c = gstSale({
  saleId: 23,
  buyer: { name: 'Lakshmi Stores', address: ['3 Residency Road', 'Bengaluru 560025'], gstin: null, state: '29' },
  lines: WORKED_LINES,
  invoiceNo: 'GT/26-27/0004',
});
/** Bill 24: a composition dealer's bill of supply to the walk-in customer. */
export const composition = gstSale({
  saleId: 24,
  mode: 'composition',
  buyer: null,
  lines: [
    { name: 'Basmati Rice 5kg', mrp: '650', disc: '25', quantity: '2', rate: '5', incl: true, hsn: '1006', unit: 'bag' },
    { name: 'Biscuit Box', mrp: '10', quantity: '2', per: '6', rate: '18', incl: true, hsn: '1905', unit: 'pcs' },
  ],
  invoiceNo: 'CS/26-27/0001',
});
/** Bill 25: a Chandigarh supplier selling to a walk-in: UTGST instead of SGST. */
export const utgst = gstSale({
  saleId: 25,
  supplier: { ...SUPPLIER, gstin: CHANDIGARH_GSTIN, state_code: '04', state_name: stateName('04'), address: ['SCO 12, Sector 17', 'Chandigarh 160017'] },
  buyer: null,
  lines: WORKED_LINES,
  invoiceNo: 'CH/26-27/0001',
});
/** Bill 26: 60 lines of mixed rates, for pagination. */
export const longGst = gstSale({
  saleId: 26,
  buyer: gujaratBuyer,
  lines: Array.from({ length: 60 }, (_, i) => ({
    name: `Item ${i + 1} of a long invoice`,
    mrp: String(100 + i),
    quantity: String((i % 4) + 1),
    rate: ['5', '12', '18', '28'][i % 4]!,
    incl: i % 2 === 0,
    hsn: ['1006', '3924', '8516', '8703'][i % 4]!,
    unit: 'pcs',
  })),
  invoiceNo: 'GT/26-27/0099',
});

const MILK: GstLineSpec = { name: 'Fresh Milk 1L', mrp: '30', quantity: '4', rate: '0', incl: false, hsn: '0401', unit: 'pcs', supply: 'exempt' };
const SALT: GstLineSpec = { name: 'Iodised Salt 1kg', mrp: '25', quantity: '2', rate: '0', incl: false, hsn: '2501', unit: 'pcs', supply: 'nil' };
/** Bill 27: a walk-in's mixed bill (intra-state): one taxable line, one exempt, one nil rated, one non-GST. */
export const mixedSupplies = gstSale({
  saleId: 27,
  buyer: null,
  lines: [
    { name: 'Steam Iron 1200W', mrp: '590', quantity: '1', rate: '18', incl: true, hsn: '8516', unit: 'pcs' },
    MILK,
    SALT,
    { name: 'Petrol 1L', mrp: '100', quantity: '1', rate: '0', incl: false, hsn: '2710', unit: 'pcs', supply: 'non_gst' },
  ],
  invoiceNo: 'GT/26-27/0005',
});
/** Bill 28: only exempt and nil-rated lines (Rule 49: a bill of supply, in the tax invoices' series). */
export const exemptOnly = gstSale({ saleId: 28, buyer: null, lines: [MILK, SALT], invoiceNo: 'GT/26-27/0006' });

export const GST_SALES: Record<number, SaleDocument> = Object.fromEntries([interB2b, intraWalkIn, intraB2b, interB2c, composition, utgst, longGst, mixedSupplies, exemptOnly].map((s) => [s.sale_id, s]));
