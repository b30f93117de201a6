import { B2CL_THRESHOLD, classifyInvoice, computeInvoice, DOC_TYPES, fp, gstr1Date, GstError, isBillOfSupply, lineSupplyType, nilSupplyKind, parseSupplyType, toUqc, UQC_CODES, uqcLabel } from '../src';

describe('fp (GSTR-1 return period MMYYYY)', () => {
  it('turns YYYY-MM into MMYYYY', () => {
    expect(fp('2026-04')).toBe('042026');
    expect(fp('2027-03')).toBe('032027');
    expect(fp(' 2026-12 ')).toBe('122026');
  });
  it.each(['2026-13', '2026-00', '2026-4', '04-2026', '042026', ''])('refuses %p', (p) => {
    expect(() => fp(p)).toThrow(GstError);
  });
});

describe('gstr1Date (dd-mm-yyyy on the Indian calendar)', () => {
  it('uses the IST date, not the UTC one', () => {
    expect(gstr1Date('2026-03-31T18:29:59Z')).toBe('31-03-2026');
    expect(gstr1Date('2026-03-31T18:30:00Z')).toBe('01-04-2026');
    expect(gstr1Date(new Date('2026-11-24T05:00:00Z'))).toBe('24-11-2026');
  });
});

describe('toUqc', () => {
  it.each<[string, string]>([
    ['pcs', 'PCS'], ['Piece', 'PCS'], ['Pcs.', 'PCS'],
    ['kg', 'KGS'], [' KG ', 'KGS'], ['Kgs', 'KGS'],
    ['g', 'GMS'], ['gram', 'GMS'], ['gm', 'GMS'],
    ['litre', 'LTR'], ['ltr', 'LTR'], ['Liter', 'LTR'],
    ['ml', 'MLT'],
    ['box', 'BOX'],
    ['dozen', 'DOZ'],
    ['pack', 'PAC'], ['packet', 'PAC'],
    ['bag', 'BAG'],
    ['bottle', 'BTL'],
    ['meter', 'MTR'], ['metre', 'MTR'],
    ['set', 'SET'],
    ['pair', 'PRS'],
    // 'unit' has its own code (UNT) in the portal's list; NOS is numbers.
    ['unit', 'UNT'], ['nos', 'NOS'],
    ['quintal', 'QTL'], ['Qtl', 'QTL'], ['tonne', 'TON'], ['MT', 'MTS'], ['carton', 'CTN'], ['roll', 'ROL'], ['sqft', 'SQF'], ['bundle', 'BDL'],
    // An official code typed as the unit is itself.
    ['GGK', 'GGK'], ['kme', 'KME'],
    ['other', 'OTH'], ['tola', 'OTH'], ['', 'OTH'],
  ])('%p -> %s', (unit, uqc) => {
    expect(toUqc(unit)).toBe(uqc);
  });
});

describe('classifyInvoice', () => {
  it('b2b whenever the buyer has a GSTIN', () => {
    expect(classifyInvoice({ registeredCustomer: true, interState: true, invoiceValue: 500000 })).toBe('b2b');
    expect(classifyInvoice({ registeredCustomer: true, interState: false, invoiceValue: 10 })).toBe('b2b');
  });

  it('b2cl only for inter-state to unregistered ABOVE Rs 1,00,000', () => {
    expect(B2CL_THRESHOLD).toBe(100000);
    expect(classifyInvoice({ registeredCustomer: false, interState: true, invoiceValue: '100000.00' })).toBe('b2cs');
    expect(classifyInvoice({ registeredCustomer: false, interState: true, invoiceValue: '100001.00' })).toBe('b2cl');
    // intra-state is b2cs at any value
    expect(classifyInvoice({ registeredCustomer: false, interState: false, invoiceValue: '500000.00' })).toBe('b2cs');
  });

  it('on computed invoices', () => {
    // 1 x 1,18,000 incl. 18 % to Karnataka, unregistered: taxable 1,00,000.00, IGST 18,000.00, value 1,18,000
    const big = computeInvoice({ mode: 'gst', companyState: '27', customerState: 'KA', lines: [{ mrp: 118000, quantity: 1, rate: 18, priceIncludesTax: true, hsn: '8418' }] });
    expect(big).toMatchObject({ taxable: '100000.00', igst: '18000.00', invoiceValue: '118000.00' });
    expect(classifyInvoice(big)).toBe('b2cl');
    // exactly 1,00,000 at 0 %: not above the threshold
    const edge = computeInvoice({ mode: 'gst', companyState: '27', customerState: 'KA', lines: [{ mrp: 100000, quantity: 1, rate: 0, hsn: '1006' }] });
    expect(classifyInvoice(edge)).toBe('b2cs');
  });

  it('refuses a bill of supply', () => {
    expect(() => classifyInvoice({ document: 'bill-of-supply', registeredCustomer: false, interState: false, invoiceValue: 1 })).toThrow(/bill of supply/);
  });
});

describe('the units the catalogue offers (inventory DEFAULT_UNITS) and the UQC list', () => {
  // services/inventory/src/products/products.service.ts DEFAULT_UNITS, each with the code GSTR-1 gets.
  it.each<[string, string]>([
    ['pcs', 'PCS'], ['kg', 'KGS'], ['g', 'GMS'], ['litre', 'LTR'], ['ml', 'MLT'], ['metre', 'MTR'],
    // No code for a running foot or a sheet: OTH, as the portal allows for units outside its list.
    ['ft', 'OTH'], ['sqft', 'SQF'], ['box', 'BOX'], ['bag', 'BAG'], ['sheet', 'OTH'], ['dozen', 'DOZ'], ['pack', 'PAC'], ['set', 'SET'], ['roll', 'ROL'],
  ])('%p -> %s', (unit, uqc) => {
    expect(toUqc(unit)).toBe(uqc);
  });
  it('the list has the official 45 codes and the CSV names them', () => {
    expect(UQC_CODES).toHaveLength(45);
    expect(UQC_CODES).toEqual(expect.arrayContaining(['QTL', 'TON', 'MTS', 'CTN', 'BOX', 'PCS', 'NOS', 'KGS', 'LTR', 'MTR', 'OTH', 'UNT']));
    expect(uqcLabel('QTL')).toBe('QTL-QUINTAL');
    expect(uqcLabel('MTS')).toBe('MTS-METRIC TON');
    expect(uqcLabel('pcs')).toBe('PCS-PIECES');
    expect(uqcLabel('XYZ')).toBe('OTH-OTHERS');
  });
});

describe('supply types (Table 8)', () => {
  it('taxable by default; nil, exempt and non_gst only at rate 0', () => {
    expect(parseSupplyType(undefined)).toBe('taxable');
    expect(parseSupplyType('', '18')).toBe('taxable');
    expect(parseSupplyType('Nil', '0')).toBe('nil');
    expect(parseSupplyType('exempt', 0)).toBe('exempt');
    expect(parseSupplyType('non-GST', '0.00')).toBe('non_gst');
    expect(() => parseSupplyType('exempt', '5')).toThrow('An exempt product is sold at 0 % GST: set its rate to 0 or its supply type to taxable.');
    expect(() => parseSupplyType('nil', 18)).toThrow(/A nil-rated product/);
    expect(() => parseSupplyType('zero', 0)).toThrow("supply_type must be one of taxable, nil, exempt, non_gst, not 'zero'.");
  });
  it('a line sold before the field existed: 0 % is nil rated, anything else taxable', () => {
    expect(lineSupplyType(undefined, '0')).toBe('nil');
    expect(lineSupplyType(null, '18')).toBe('taxable');
    expect(lineSupplyType('exempt', '0')).toBe('exempt');
    // A taxable supply at 0 % is nil rated; 0.25 % is a rate.
    expect(lineSupplyType('taxable', '0.00')).toBe('nil');
    expect(lineSupplyType(undefined, 0)).toBe('nil');
    expect(lineSupplyType(undefined, '0.25')).toBe('taxable');
    expect(lineSupplyType('taxable', '10')).toBe('taxable');
  });
  it('a bill of supply: composition, or a gst bill whose lines are all nil/exempt/non-GST (Rule 49); a mixed bill is a tax invoice', () => {
    expect(isBillOfSupply('bill-of-supply', [{ gst_rate: '18' }])).toBe(true);
    expect(isBillOfSupply('tax-invoice', [{ supply_type: 'exempt', gst_rate: '0' }, { gst_rate: '0' }, { supply_type: 'non_gst', gst_rate: '0' }])).toBe(true);
    expect(isBillOfSupply('tax-invoice', [{ supply_type: 'exempt', gst_rate: '0' }, { supply_type: 'taxable', gst_rate: '18' }])).toBe(false);
    expect(isBillOfSupply('tax-invoice', [])).toBe(false);
  });
  it('sply_ty by where and to whom', () => {
    expect(nilSupplyKind(true, true)).toBe('INTRB2B');
    expect(nilSupplyKind(false, true)).toBe('INTRAB2B');
    expect(nilSupplyKind(true, false)).toBe('INTRB2C');
    expect(nilSupplyKind(false, false)).toBe('INTRAB2C');
  });
  it('document natures of Table 13 by number', () => {
    expect(DOC_TYPES[1]).toBe('Invoices for outward supply');
    expect(DOC_TYPES[5]).toBe('Credit Note');
    expect(Object.keys(DOC_TYPES)).toHaveLength(12);
  });
});
