import { classifyInvoice, computeInvoice, GstError, InvoiceInput, SaleLineInput } from '../src';

const SELLER_STATE = '27'; // Maharashtra
const BUYER_GSTIN = '24AAGCS5678K1ZT'; // Gujarat, check character worked in gstin.test.ts

// The reference cart: 3 x 590.00 incl. 18 %, and 2 x 100.00 excl. 12 % less 5.00 each.
const kettle: SaleLineInput = { mrp: '590.00', quantity: 3, rate: 18, priceIncludesTax: true, hsn: '8516', unit: 'pcs' };
const box: SaleLineInput = { mrp: 100, discount: 5, quantity: 2, rate: '12', priceIncludesTax: false, hsn: '3924', unit: 'piece' };
const cart = (over: Partial<InvoiceInput> = {}): InvoiceInput => ({ mode: 'gst', companyState: SELLER_STATE, lines: [kettle, box], ...over });

describe('computeInvoice: the reference worked example', () => {
  it('Maharashtra to a registered Gujarat buyer: IGST', () => {
    const inv = computeInvoice(cart({ customerGstin: BUYER_GSTIN }));
    // kettle: gross 590 x 3 = 1770; incl. 18 %: 1770 x 100 / 118 = 1500.00; IGST 1500 x 18 / 100 = 270.00
    // box: gross (100 - 5) x 2 = 190; excl.: taxable 190.00; IGST 190 x 12 / 100 = 22.80
    expect(inv.lines).toEqual([
      { hsn: '8516', uqc: 'PCS', rate: '18', qty: '3', gross: '1770.00', lineTaxable: '1500.00', share: '0.00', taxable: '1500.00', igst: '270.00', cgst: '0.00', sgst: '0.00', total: '1770.00' },
      { hsn: '3924', uqc: 'PCS', rate: '12', qty: '2', gross: '190.00', lineTaxable: '190.00', share: '0.00', taxable: '190.00', igst: '22.80', cgst: '0.00', sgst: '0.00', total: '212.80' },
    ]);
    // 1690.00 + 292.80 = 1982.80 -> 1983.00, round off +0.20
    expect(inv).toMatchObject({
      document: 'tax-invoice',
      placeOfSupply: '24',
      companyState: '27',
      interState: true,
      registeredCustomer: true,
      taxable: '1690.00',
      igst: '292.80',
      cgst: '0.00',
      sgst: '0.00',
      tax: '292.80',
      exactTotal: '1982.80',
      roundOff: '0.20',
      invoiceValue: '1983.00',
    });
    expect(classifyInvoice(inv)).toBe('b2b');
  });

  it('the same cart to a walk-in: place of supply 27, CGST + SGST', () => {
    const inv = computeInvoice(cart());
    // kettle: 1500 x 18 / 2 / 100 = 135.00 each; box: 190 x 12 / 2 / 100 = 11.40 each
    expect(inv.lines.map((l) => [l.taxable, l.igst, l.cgst, l.sgst, l.total])).toEqual([
      ['1500.00', '0.00', '135.00', '135.00', '1770.00'],
      ['190.00', '0.00', '11.40', '11.40', '212.80'],
    ]);
    expect(inv).toMatchObject({
      placeOfSupply: '27',
      interState: false,
      stateTaxName: 'SGST',
      registeredCustomer: false,
      taxable: '1690.00',
      igst: '0.00',
      cgst: '146.40',
      sgst: '146.40',
      tax: '292.80',
      exactTotal: '1982.80',
      roundOff: '0.20',
      invoiceValue: '1983.00',
    });
    expect(classifyInvoice(inv)).toBe('b2cs');
  });

  it('a registered buyer in the same state: CGST + SGST, still b2b', () => {
    // 27AAPFU0939F1ZV is a Maharashtra GSTIN (gstin.test.ts, worked computation 1)
    const inv = computeInvoice(cart({ customerGstin: '27AAPFU0939F1ZV', customerState: 'GJ' }));
    expect(inv).toMatchObject({ placeOfSupply: '27', interState: false, registeredCustomer: true, igst: '0.00', cgst: '146.40', sgst: '146.40', invoiceValue: '1983.00' });
    expect(classifyInvoice(inv)).toBe('b2b');
  });

  it("an unregistered buyer with a recorded state is taxed by that state (IGST)", () => {
    const inv = computeInvoice(cart({ customerState: 'Gujarat' }));
    expect(inv).toMatchObject({ placeOfSupply: '24', interState: true, registeredCustomer: false, igst: '292.80', invoiceValue: '1983.00' });
    expect(classifyInvoice(inv)).toBe('b2cs'); // 1983 is not above 1,00,000
  });
});

describe('computeInvoice: rounding to the paisa, half-up', () => {
  const one = (line: Partial<SaleLineInput>, over: Partial<InvoiceInput> = {}) =>
    computeInvoice({ mode: 'gst', companyState: '27', lines: [{ mrp: 100, quantity: 1, rate: 18, hsn: '1006', ...line }], ...over });

  it('a tax-inclusive price: taxable rounded per line, taxes per line, the paisa drift goes to round off', () => {
    // 100 x 100 / 118 = 84.745762... -> 84.75
    // intra: 84.75 x 9 / 100 = 7.6275 -> 7.63 each; 84.75 + 15.26 = 100.01 -> 100.00, round off -0.01
    expect(one({ priceIncludesTax: true })).toMatchObject({ taxable: '84.75', cgst: '7.63', sgst: '7.63', exactTotal: '100.01', roundOff: '-0.01', invoiceValue: '100.00' });
    // inter: 84.75 x 18 / 100 = 15.255, exactly half a paisa -> up to 15.26
    expect(one({ priceIncludesTax: true }, { customerState: 'KA' })).toMatchObject({ taxable: '84.75', igst: '15.26', exactTotal: '100.01', roundOff: '-0.01', invoiceValue: '100.00' });
  });

  it('a half-paisa taxable value rounds up (not to even)', () => {
    // 0.5 kg x 10.01 = 5.005 -> 5.01 (banker's rounding would give 5.00)
    // intra 5 %: 5.01 x 5 / 2 / 100 = 0.12525 -> 0.13 each; 5.01 + 0.26 = 5.27 -> 5.00, round off -0.27
    const inv = one({ mrp: '10.01', quantity: '0.5', rate: 5, unit: 'kg' });
    expect(inv.lines[0]).toMatchObject({ gross: '5.01', lineTaxable: '5.01', qty: '0.5', uqc: 'KGS', cgst: '0.13', sgst: '0.13', total: '5.27' });
    expect(inv).toMatchObject({ exactTotal: '5.27', roundOff: '-0.27', invoiceValue: '5.00' });
  });

  it('per_peice_quantity multiplies the gross and the counted quantity', () => {
    // (12 - 2) x 2 x 6 = 120; rate 0: no tax; 12 units for the HSN summary
    const inv = one({ mrp: 12, discount: 2, quantity: 2, per_peice_quantity: 6, rate: 0 });
    expect(inv.lines[0]).toMatchObject({ gross: '120.00', taxable: '120.00', qty: '12', cgst: '0.00' });
    expect(inv.invoiceValue).toBe('120.00');
  });

  it('round off: exactly .50 goes up, .49 goes down', () => {
    expect(one({ mrp: '10.50', rate: 0 })).toMatchObject({ exactTotal: '10.50', roundOff: '0.50', invoiceValue: '11.00' });
    expect(one({ mrp: '10.49', rate: 0 })).toMatchObject({ exactTotal: '10.49', roundOff: '-0.49', invoiceValue: '10.00' });
  });

  it('UTGST names the state half in Chandigarh', () => {
    // 100 x 18 / 2 / 100 = 9.00 each
    expect(one({}, { companyState: 'CH' })).toMatchObject({ stateTaxName: 'UTGST', cgst: '9.00', sgst: '9.00', invoiceValue: '118.00' });
  });
});

describe('computeInvoice: shipping and summary discount spread over the lines', () => {
  it('shipping 100.00 over taxable 1500 and 190, inter-state', () => {
    const inv = computeInvoice(cart({ customerGstin: BUYER_GSTIN, shipping: 100 }));
    // shares: 100 x 1500 / 1690 = 88.7573... -> 88.76; 100 x 190 / 1690 = 11.2426... -> 11.24; sum 100.00
    // IGST: 1588.76 x 0.18 = 285.9768 -> 285.98; 201.24 x 0.12 = 24.1488 -> 24.15
    expect(inv.lines.map((l) => [l.share, l.taxable, l.igst])).toEqual([
      ['88.76', '1588.76', '285.98'],
      ['11.24', '201.24', '24.15'],
    ]);
    // 1790.00 + 310.13 = 2100.13 -> 2100.00, round off -0.13
    expect(inv).toMatchObject({ shipping: '100.00', discount: '0.00', taxable: '1790.00', igst: '310.13', exactTotal: '2100.13', roundOff: '-0.13', invoiceValue: '2100.00' });
  });

  it('a discount larger than the shipping is spread as a negative share', () => {
    const inv = computeInvoice(cart({ customerGstin: BUYER_GSTIN, shipping: 50, discount: 150 }));
    // net 50 - 150 = -100: -88.7573... -> -88.76; -11.2426... -> -11.24
    // IGST: 1411.24 x 0.18 = 254.0232 -> 254.02; 178.76 x 0.12 = 21.4512 -> 21.45
    expect(inv.lines.map((l) => [l.share, l.taxable, l.igst])).toEqual([
      ['-88.76', '1411.24', '254.02'],
      ['-11.24', '178.76', '21.45'],
    ]);
    // 1590.00 + 275.47 = 1865.47 -> 1865.00, round off -0.47
    expect(inv).toMatchObject({ taxable: '1590.00', igst: '275.47', exactTotal: '1865.47', roundOff: '-0.47', invoiceValue: '1865.00' });
  });

  it('the leftover paisa goes to the largest line; on a tie, to the first of them', () => {
    const ten: SaleLineInput = { mrp: 10, quantity: 1, rate: 5, hsn: '1006' };
    const inv = computeInvoice({ mode: 'gst', companyState: '27', lines: [ten, ten, ten], shipping: 1 });
    // 1.00 / 3 = 0.3333 -> 0.33 each, 0.99 in all; the 0.01 left goes to line 1 (all tie)
    // CGST: 10.34 x 2.5 / 100 = 0.2585 -> 0.26; 10.33 x 2.5 / 100 = 0.25825 -> 0.26
    expect(inv.lines.map((l) => [l.share, l.taxable, l.cgst])).toEqual([
      ['0.34', '10.34', '0.26'],
      ['0.33', '10.33', '0.26'],
      ['0.33', '10.33', '0.26'],
    ]);
    // 31.00 + 0.78 + 0.78 = 32.56 -> 33.00, round off +0.44
    expect(inv).toMatchObject({ taxable: '31.00', cgst: '0.78', sgst: '0.78', exactTotal: '32.56', roundOff: '0.44', invoiceValue: '33.00' });

    const twenty: SaleLineInput = { ...ten, mrp: 20 };
    const second = computeInvoice({ mode: 'gst', companyState: '27', lines: [ten, twenty, twenty], shipping: '0.01' });
    // 0.01 x 10/50 = 0.002 -> 0.00; x 20/50 = 0.004 -> 0.00 twice; the 0.01 goes to line 2 (first of the two 20s)
    expect(second.lines.map((l) => l.share)).toEqual(['0.00', '0.01', '0.00']);
  });

  it('a discount equal to goods plus shipping leaves a zero invoice', () => {
    // net 10 - 1700 = -1690 = -(1500 + 190): shares -1500.00 and -190.00 exactly
    const inv = computeInvoice(cart({ shipping: 10, discount: 1700 }));
    expect(inv.lines.map((l) => [l.share, l.taxable, l.cgst])).toEqual([
      ['-1500.00', '0.00', '0.00'],
      ['-190.00', '0.00', '0.00'],
    ]);
    expect(inv).toMatchObject({ taxable: '0.00', tax: '0.00', roundOff: '0.00', invoiceValue: '0.00' });
  });

  it('shipping on goods of zero value goes to the first line', () => {
    const free: SaleLineInput = { mrp: 10, discount: 10, quantity: 1, rate: 18, hsn: '1006' };
    const inv = computeInvoice({ mode: 'gst', companyState: '27', lines: [free, { ...free, rate: 5 }], shipping: 50 });
    // no proportion to use: all 50.00 to line 1, taxed at its 18 %: 50 x 9 / 100 = 4.50 each
    expect(inv.lines.map((l) => [l.share, l.taxable, l.cgst])).toEqual([
      ['50.00', '50.00', '4.50'],
      ['0.00', '0.00', '0.00'],
    ]);
    expect(inv.invoiceValue).toBe('59.00');
  });
});

describe('computeInvoice: composition mode (bill of supply)', () => {
  it('no tax: taxable = gross, whatever the price says about tax', () => {
    const inv = computeInvoice(cart({ mode: 'composition', shipping: 40, discount: 20 }));
    // gross 1770 and 190; net +20: 20 x 1770 / 1960 = 18.0612 -> 18.06; 20 x 190 / 1960 = 1.9387 -> 1.94
    expect(inv.lines.map((l) => [l.rate, l.lineTaxable, l.share, l.taxable, l.igst, l.cgst, l.sgst])).toEqual([
      ['0', '1770.00', '18.06', '1788.06', '0.00', '0.00', '0.00'],
      ['0', '190.00', '1.94', '191.94', '0.00', '0.00', '0.00'],
    ]);
    expect(inv).toMatchObject({ document: 'bill-of-supply', taxable: '1980.00', tax: '0.00', roundOff: '0.00', invoiceValue: '1980.00' });
    expect(() => classifyInvoice(inv)).toThrow(/not reported in GSTR-1/);
  });

  it('does not need a rate', () => {
    expect(computeInvoice({ mode: 'composition', companyState: '27', lines: [{ mrp: 5, quantity: 3, hsn: '1905' }] }).invoiceValue).toBe('15.00');
  });

  it('refuses an inter-state sale (CGST Act s.10(2)(c))', () => {
    expect(() => computeInvoice(cart({ mode: 'composition', customerGstin: BUYER_GSTIN }))).toThrow(/composition dealer cannot make an inter-state supply \(place of supply 24, company state 27\)/);
  });
});

describe('computeInvoice: bad input is refused with a sentence', () => {
  const line = (over: Partial<SaleLineInput>): InvoiceInput => cart({ lines: [kettle, { ...box, ...over }] });
  it.each<[string, InvoiceInput, RegExp]>([
    ['zero quantity', line({ quantity: 0 }), /quantity of line 2 must be more than zero \(0\)/],
    ['negative quantity', line({ quantity: -1 }), /quantity of line 2 must be more than zero \(-1\)/],
    ['zero per_peice_quantity', line({ per_peice_quantity: 0 }), /per_peice_quantity of line 2 must be more than zero/],
    ['negative mrp', line({ mrp: -100 }), /mrp of line 2 cannot be negative/],
    ['negative line discount', line({ discount: -5 }), /discount of line 2 cannot be negative/],
    ['discount above mrp', line({ discount: 101 }), /discount of line 2 \(101\) is more than its mrp \(100\)/],
    ['a rate that is not a GST rate', line({ rate: 14 }), /^Line 2: 14 % is not a GST rate/],
    ['no rate', line({ rate: undefined }), /^Line 2: The GST rate is not a valid number: 'missing'/],
    ['a bad HSN', line({ hsn: '392' }), /^Line 2: HSN code '392' must be 4, 6 or 8 digits/],
    ['a quantity that is not a number', line({ quantity: '2x' }), /quantity of line 2 is not a valid number: '2x'/],
    ['negative shipping', cart({ shipping: -1 }), /shipping cannot be negative/],
    ['negative summary discount', cart({ discount: -1 }), /summary discount cannot be negative/],
    ['a discount above goods plus shipping', cart({ shipping: 10, discount: '1700.01' }), /discount \(1700.01\) is more than the goods' taxable value plus shipping \(1700.00\)/],
    ['no lines', cart({ lines: [] }), /at least one line/],
    ['simple mode', cart({ mode: 'simple' as 'gst' }), /Tax mode 'simple' has no GST invoice/],
    ['an unknown company state', cart({ companyState: '40' }), /'40' is not an Indian state/],
    ['a wrong customer GSTIN', cart({ customerGstin: '24AAGCS5678K1Z1' }), /Customer GSTIN: .*should be 'T'/],
  ])('%s', (_what, input, message) => {
    expect(() => computeInvoice(input)).toThrow(GstError);
    expect(() => computeInvoice(input)).toThrow(message);
  });
});
