import type { PurchaseGst } from '@bahi/contracts';
import { applyLanguage, i18n } from '@bahi/i18n';
import './i18n';
import { purchaseGstView } from './gst';

beforeAll(async () => {
  await applyLanguage('en');
  await i18n.loadNamespaces('purchase');
});

const base: PurchaseGst = {
  distributor_gstin: '27AAACB1234C1ZF',
  distributor_state_code: '27',
  distributor_state_name: 'Maharashtra',
  company_state_code: '27',
  inter_state: false,
  state_tax_name: 'SGST',
  lines: [{ sl_no: 4, hsn_code: '1701', gst_rate: '5', taxable_value: '6046.67', cgst: '151.17', sgst: '151.17', igst: '0.00' }],
  taxable_total: '9070.00',
  cgst_total: '423.27',
  sgst_total: '423.27',
  igst_total: '0.00',
  tax_total: '846.54',
};

describe('the purchase detail in GST mode', () => {
  it('is nothing in simple mode', () => {
    expect(purchaseGstView({ gst: null, total: 354 })).toBeNull();
    expect(purchaseGstView({ total: 354 })).toBeNull();
  });

  it('intra-state: CGST and SGST (or UTGST); round off up (9070.00 + 846.54 = 9916.54 -> 9917: +0.46)', () => {
    const v = purchaseGstView({ gst: base, total: 9917 })!;
    expect(v.heads).toEqual([
      { label: 'CGST', key: 'cgst', total: '423.27' },
      { label: 'SGST', key: 'sgst', total: '423.27' },
    ]);
    expect(v.roundOff).toBe('0.46');
    expect(v.line(4)?.hsn_code).toBe('1701');
    expect(v.line(5)).toBeUndefined();
    expect(v.distributorState).toBe('Maharashtra (27)');
    expect(purchaseGstView({ gst: { ...base, state_tax_name: 'UTGST' }, total: 9917 })!.heads[1].label).toBe('UTGST');
  });

  it('inter-state: IGST only; round off down (1200.10 + 219.01 = 1419.11 -> 1419: -0.11); no state recorded', () => {
    const gst = { ...base, inter_state: true, distributor_state_code: '24', distributor_state_name: 'Gujarat', taxable_total: '1200.10', igst_total: '219.01', cgst_total: '0.00', sgst_total: '0.00', tax_total: '219.01' };
    const v = purchaseGstView({ gst, total: 1419 })!;
    expect(v.heads).toEqual([{ label: 'IGST', key: 'igst', total: '219.01' }]);
    expect(v.roundOff).toBe('-0.11');
    expect(v.distributorState).toBe('Gujarat (24)');
    const none = purchaseGstView({ gst: { ...base, distributor_gstin: null, distributor_state_code: null, distributor_state_name: null }, total: 9917 })!;
    expect(none.distributorState).toBe("Not recorded: taken as the company's (27)");
    // An exact total: round off zero.
    expect(purchaseGstView({ gst: { ...base, taxable_total: '100.00', tax_total: '12.00' }, total: 112 })!.roundOff).toBe('0.00');
    expect(purchaseGstView({ gst: { ...base, taxable_total: '0.30', tax_total: '0.00' }, total: 0 })!.roundOff).toBe('-0.30');
  });
});
