import { computeInvoice, hsnSummary, InvoiceInput, rateSummary } from '../src';

// Intra-state (27): rice by kg and by bag at 5 %, soap by piece at 18 %.
const shop: InvoiceInput = {
  mode: 'gst',
  companyState: '27',
  lines: [
    { mrp: 60, quantity: 10, rate: 5, hsn: '1006', unit: 'kg' }, // 600.00; CGST 600 x 2.5 % = 15.00
    { mrp: 40, quantity: 5, rate: 18, hsn: '3401', unit: 'pcs' }, // 200.00; CGST 200 x 9 % = 18.00
    { mrp: 55, quantity: 4, rate: 5, hsn: '1006', unit: 'KGS' }, // 220.00; CGST 220 x 2.5 % = 5.50
    { mrp: 1200, quantity: 1, rate: 5, hsn: '1006', unit: 'bag' }, // 1200.00; CGST 30.00
  ],
};

describe('hsnSummary', () => {
  it('one row per HSN, UQC and rate, sorted, adding up the lines', () => {
    const inv = computeInvoice(shop);
    expect(hsnSummary(inv)).toEqual([
      { hsn: '1006', uqc: 'BAG', rate: '5', qty: '1', taxable: '1200.00', igst: '0.00', cgst: '30.00', sgst: '30.00' },
      // 10 + 4 kg; 600 + 220; 15.00 + 5.50
      { hsn: '1006', uqc: 'KGS', rate: '5', qty: '14', taxable: '820.00', igst: '0.00', cgst: '20.50', sgst: '20.50' },
      { hsn: '3401', uqc: 'PCS', rate: '18', qty: '5', taxable: '200.00', igst: '0.00', cgst: '18.00', sgst: '18.00' },
    ]);
    // 2220.00 + 2 x 68.50 = 2357.00
    expect(inv).toMatchObject({ taxable: '2220.00', cgst: '68.50', tax: '137.00', invoiceValue: '2357.00', roundOff: '0.00' });
  });

  it('adds up many invoices (GSTR-1 Table 12), IGST and CGST/SGST side by side', () => {
    const lines: InvoiceInput['lines'] = [
      { mrp: 590, quantity: 3, rate: 18, priceIncludesTax: true, hsn: '8516', unit: 'pcs' },
      { mrp: 100, discount: 5, quantity: 2, rate: 12, hsn: '3924', unit: 'pcs' },
    ];
    const inter = computeInvoice({ mode: 'gst', companyState: '27', customerGstin: '24AAGCS5678K1ZT', lines });
    const intra = computeInvoice({ mode: 'gst', companyState: '27', lines });
    expect(hsnSummary([inter, intra])).toEqual([
      // 190 + 190; IGST 22.80 from one, CGST/SGST 11.40 from the other
      { hsn: '3924', uqc: 'PCS', rate: '12', qty: '4', taxable: '380.00', igst: '22.80', cgst: '11.40', sgst: '11.40' },
      { hsn: '8516', uqc: 'PCS', rate: '18', qty: '6', taxable: '3000.00', igst: '270.00', cgst: '135.00', sgst: '135.00' },
    ]);
  });

  it('keeps the same HSN at two rates apart, lower rate first', () => {
    const inv = computeInvoice({
      mode: 'gst',
      companyState: '27',
      lines: [
        { mrp: 100, quantity: 1, rate: 18, hsn: '6109' },
        { mrp: 100, quantity: 1, rate: 5, hsn: '6109' },
      ],
    });
    // no unit -> OTH; 100 x 2.5 % = 2.50, 100 x 9 % = 9.00
    expect(hsnSummary(inv).map((r) => [r.hsn, r.uqc, r.rate, r.cgst])).toEqual([
      ['6109', 'OTH', '5', '2.50'],
      ['6109', 'OTH', '18', '9.00'],
    ]);
  });
});

describe('rateSummary', () => {
  it('totals per rate, numerically ordered, adding up to the invoice', () => {
    const inv = computeInvoice(shop);
    expect(rateSummary(inv)).toEqual([
      // 600 + 220 + 1200 = 2020.00; 15.00 + 5.50 + 30.00 = 50.50 each half; tax 101.00
      { rate: '5', taxable: '2020.00', igst: '0.00', cgst: '50.50', sgst: '50.50', tax: '101.00' },
      { rate: '18', taxable: '200.00', igst: '0.00', cgst: '18.00', sgst: '18.00', tax: '36.00' },
    ]);
  });

  it('orders 0.25 before 3 before 12 (numbers, not text)', () => {
    const inv = computeInvoice({
      mode: 'gst',
      companyState: '27',
      customerState: 'DL',
      lines: [
        { mrp: 1000, quantity: 1, rate: 12, hsn: '7113' }, // IGST 120.00
        { mrp: 1000, quantity: 1, rate: 3, hsn: '7113' }, // IGST 30.00
        { mrp: 1000, quantity: 1, rate: '0.25', hsn: '7102' }, // IGST 2.50
      ],
    });
    expect(rateSummary(inv).map((r) => [r.rate, r.igst, r.tax])).toEqual([
      ['0.25', '2.50', '2.50'],
      ['3', '30.00', '30.00'],
      ['12', '120.00', '120.00'],
    ]);
  });
});
