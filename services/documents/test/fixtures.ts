import type { CompanyDetails, Customer, CustomerStatement, EstimateDocument, HistoryRow, LabelDetailsReply, PurchaseLabels, ReceiptDocument, SaleDocument, StockBookReply } from '@bahi/contracts';
import type { CompanyView } from '../src/templates/model';

export const COMPANY_ID = 1;
export const OTHER_COMPANY_ID = 2;

export const companyDetails: CompanyDetails = {
  id: COMPANY_ID,
  name: 'Sharma Kirana Stores',
  add1: '12 MG Road',
  add2: 'Indiranagar, Bengaluru',
  mob1: '9876543210',
  mob2: '',
  email: 'sharma@example.in',
  logo: null,
  upiId: 'sharmakirana@upi',
};

export const company: CompanyView = { ...companyDetails, logo: null };

export const customer: Customer = {
  id: 5,
  client_id: 5,
  name: 'Ramesh Gupta रमेश',
  mobile_no: '9123456780',
  address_line_1: '4 Park Street',
  address_line_2: '',
  city_or_district: 'Kolkata',
  state: 'WB',
  country: 'India',
  postal_code: '700016',
};

export const walkIn: Customer = { ...customer, id: 1, client_id: 1, name: 'Unknown', mobile_no: '0000000000', walkIn: true };

export const sale: SaleDocument = {
  sale_id: 7,
  date: '2025-03-14',
  due_date: '2025-04-14',
  customer,
  soldProducts: [
    { product_id: 12, product_name: 'Basmati Rice 5kg', quantity: '2', rate: '650', disc: '25', price: '625', amount: '1250', hsn_code: '1006', unit: 'bag' },
    { product_id: 31, product_name: 'Toor Dal 1kg', quantity: '3', rate: '160.50', disc: '0', price: '160.50', amount: '481.50', hsn_code: '0713', unit: 'kg' },
  ],
  subtotal: '1731.50',
  tax: '311.67',
  shipping: '40',
  summery_discount: '21.50',
  previousDue: '500.25',
  paid: '1000',
  delivery: {
    id: 3,
    transporter_name: 'Speedy Logistics',
    transporter_mobile: '9000000001',
    address: '4 Park Street, Kolkata',
    mode_of_transport: 'ROAD',
    vehicle_number: 'WB02AB1234',
    dispatched_date: '2025-03-15',
    sale_id: 7,
  },
};
// total = 1731.50 + 500.25 + 40 + 311.67 - 21.50 = 2561.92; due = 1561.92 -> printed ₹1,562

export const walkInSale: SaleDocument = { ...sale, sale_id: 8, customer: walkIn, previousDue: '999', paid: '2061.67', delivery: null };
// total = 1731.50 + 40 + 311.67 - 21.50 = 2061.67 (previous due excluded); due 0

/** Sale 7 paid by UPI only (issue 28): the drawer stays shut. */
export const upiSale: SaleDocument = { ...sale, sale_id: 11, payments: [{ mode: 'upi', amount: '1000', ref: 'UTR4471' }] };

export const estimate: EstimateDocument = {
  estimate_id: 3,
  date: '2025-03-10',
  customer,
  lines: sale.soldProducts,
  subtotal: '1731.50',
  tax: '0',
  shipping: '0',
  summery_discount: '0',
  previous_due: '0',
};

export const receipt: ReceiptDocument = {
  id: 41,
  client_id: 5,
  name: customer.name,
  mobile_no: customer.mobile_no,
  address: '4 Park Street, Kolkata',
  type: 'Payment Received',
  transaction_id: 'TXN-99',
  amount: 750,
  date: '2025-03-20',
  next_due_date: '2025-04-20',
  previous_due: 1561.92,
  due: 811.92,
};

export function historyRows(n: number): HistoryRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `r${i + 1}`,
    date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`,
    type: i % 2 ? 'Payment Received' : 'Sale',
    ref: i + 1,
    amount: i % 2 ? 0 : 100 + i,
    paid: i % 2 ? 50 : 0,
    balance: 1000 + i,
    due_date: null,
    hide_link: null,
  }));
}

export function statement(n: number, due = '2.50'): CustomerStatement {
  return { customer, rows: historyRows(n), due, dueDate: '2025-04-01' };
}

export const stockBook: StockBookReply = {
  category: { id: 4, name: 'Grains' },
  specField: ['Weight', 'Grade'],
  list: [
    { product_id: 12, product_name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', cp: '540.25', stock: '40', unit: 'bag', specs: ['5kg', 'A'] },
    { product_id: 13, product_name: 'Sona Masoori 10kg', brand_name: 'Daawat', mrp: '720', cp: '610', stock: '12', unit: 'bag', specs: ['10kg', 'B'] },
    { product_id: 14, product_name: 'Poha 1kg', brand_name: 'Local', mrp: '60', cp: '44', stock: '100', unit: 'kg', specs: ['1kg', 'A'] },
  ],
};

export function labelDetails(productId: number, code = String(productId)): LabelDetailsReply {
  return {
    product: { product_id: productId, product_name: 'Basmati Rice 5kg', brand_name: 'India Gate', mrp: '650', unit: 'bag', per_peice_quantity: '1', barcode: '', stock: '40' },
    category: { id: 4, name: 'Grains' },
    features: [
      { field_name: 'Weight', alias: 'Wt', value: '5kg' },
      { field_name: 'Grade', alias: 'Grade', value: 'A' },
    ],
    code,
  };
}

export const purchaseLabels: PurchaseLabels = {
  purchase_id: 9,
  date: '2025-03-01',
  distributor_name: 'Agarwal Traders',
  lines: [
    { ...labelDetails(12), packets: 30 },
    { ...labelDetails(13), packets: 15 },
  ],
};

/** A purchase that holds product 7 (the `packets=7:...` of the limits test). */
export const purchaseWithSeven: PurchaseLabels = {
  purchase_id: 12,
  date: '2025-03-02',
  distributor_name: 'Agarwal Traders',
  lines: [
    { ...labelDetails(7), packets: 2 },
    { ...labelDetails(12), packets: 3 },
  ],
};

/** A purchase bought in a huge quantity: its default packets alone are far beyond any sheet. */
export const hugePurchase: PurchaseLabels = { ...purchaseWithSeven, purchase_id: 13, lines: [{ ...labelDetails(7), packets: 99_999_999_999 }] };

/** A sale with more lines than a bill prints. */
export function longSale(lines: number): SaleDocument {
  return { ...sale, sale_id: 9, soldProducts: Array.from({ length: lines }, (_, i) => ({ ...sale.soldProducts[0]!, product_id: i + 1 })) };
}

/**
 * A sale with a multi-piece line: 2 boxes of 6 pcs at 10.00 less 1.00 a piece is 12 pcs x 9.00 =
 * 108.00 (the amount sales stores); the second line is a loose 0.25 kg at 80.00 = 20.00.
 */
export const packSale: SaleDocument = {
  ...sale,
  sale_id: 10,
  soldProducts: [
    { sl_no: 1, product_id: 40, product_name: 'Parle-G Biscuit Box', quantity: '2', per_peice_quantity: '6', rate: '10', disc: '1', price: '9', amount: '108', hsn_code: '1905', unit: 'pcs' },
    { sl_no: 2, product_id: 41, product_name: 'Loose Cashew', quantity: '0.25', per_peice_quantity: '1', rate: '80', disc: '0', price: '80', amount: '20', hsn_code: '0801', unit: 'kg' },
  ],
  subtotal: '128',
  tax: '0',
  shipping: '0',
  summery_discount: '0',
  previousDue: '0',
  paid: '128',
};

export const packEstimate: EstimateDocument = { ...estimate, estimate_id: 4, lines: packSale.soldProducts, subtotal: '128' };
