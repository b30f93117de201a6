import { setOffItc } from '../src';

const heads = (igst: string, cgst: string, sgst: string) => ({ igst, cgst, sgst });

describe('setOffItc (GSTR-3B 6.1: s.49(5), s.49A, Rule 88A)', () => {
  it('no credit: everything is paid in cash', () => {
    const r = setOffItc(heads('270.00', '146.40', '146.40'), heads('0', '0', '0'));
    expect(r.payable).toEqual(heads('270.00', '146.40', '146.40'));
    expect(r.carried).toEqual(heads('0.00', '0.00', '0.00'));
  });

  it('each credit against its own head first', () => {
    // IGST 1000 - 400 = 600; CGST 500 - 200 = 300; SGST 500 - 300 = 200.
    const r = setOffItc(heads('1000', '500', '500'), heads('400', '200', '300'));
    expect(r.payable).toEqual(heads('600.00', '300.00', '200.00'));
    expect(r.carried).toEqual(heads('0.00', '0.00', '0.00'));
  });

  it('IGST credit left after IGST covers what CGST/SGST credit cannot, before their own credit is used', () => {
    // IGST 100 vs credit 500: 400 left. CGST 300 with own credit 100: shortfall 200;
    // SGST 300 with own credit 250: shortfall 50. IGST credit: 200 to CGST, 50 to SGST, then
    // the remaining 150 (used up first, s.49A): CGST 100 -> 0 (100), SGST 250 -> 200 (50).
    // IGST credit used: 100 + 300 + 100 = 500. CGST credit 100 vs CGST 0 -> carried 100;
    // SGST credit 250 vs 200 -> carried 50.
    const r = setOffItc(heads('100', '300', '300'), heads('500', '100', '250'));
    expect(r.used.igst).toEqual(heads('100.00', '300.00', '100.00'));
    expect(r.payable).toEqual(heads('0.00', '0.00', '0.00'));
    expect(r.carried).toEqual(heads('0.00', '100.00', '50.00'));
  });

  it('CGST and SGST credit go against IGST when their own head is covered', () => {
    // IGST 1000, credit 0; CGST 100 vs credit 300 -> 200 left to IGST: 800;
    // SGST 100 vs credit 500 -> 400 left to IGST: 400 payable.
    const r = setOffItc(heads('1000', '100', '100'), heads('0', '300', '500'));
    expect(r.used.cgst).toEqual(heads('200.00', '100.00', '0.00'));
    expect(r.used.sgst).toEqual(heads('400.00', '0.00', '100.00'));
    expect(r.payable).toEqual(heads('400.00', '0.00', '0.00'));
    expect(r.carried).toEqual(heads('0.00', '0.00', '0.00'));
  });

  it('CGST credit is never used against SGST, nor SGST credit against CGST', () => {
    // CGST 0 with credit 500; SGST 300 with credit 0: SGST paid in cash, CGST credit carried.
    const r = setOffItc(heads('0', '0', '300'), heads('0', '500', '0'));
    expect(r.payable).toEqual(heads('0.00', '0.00', '300.00'));
    expect(r.carried).toEqual(heads('0.00', '500.00', '0.00'));
    const s = setOffItc(heads('0', '250.50', '0'), heads('0', '0', '999'));
    expect(s.payable).toEqual(heads('0.00', '250.50', '0.00'));
    expect(s.carried).toEqual(heads('0.00', '0.00', '999.00'));
  });

  it('more credit than tax: nothing payable, the rest carried; paise exact', () => {
    const r = setOffItc(heads('22.80', '11.40', '11.40'), heads('100.01', '0.10', '0.20'));
    // IGST 100.01 - 22.80 = 77.21; CGST shortfall 11.30, SGST 11.20 (77.21 - 22.50 = 54.71), then
    // IGST credit covers the 0.10 and 0.20 left too (used up first, s.49A): 54.71 - 0.30 = 54.41
    // carried, and the CGST/SGST credit 0.10/0.20 is carried whole.
    expect(r.payable).toEqual(heads('0.00', '0.00', '0.00'));
    expect(r.carried).toEqual(heads('54.41', '0.10', '0.20'));
  });
});
