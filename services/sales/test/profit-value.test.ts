// The value each sold line's profit is measured on (issue 29), as the sale event carries it
// (`net_value`): before tax and shipping, less the line's share of the summary discount apportioned
// by value as the invoice apportions it. The GST lines come from @bahi/gst's computeInvoice, the
// code that prices the bill; hand-computed figures.
import { computeInvoice } from '@bahi/gst';
import { saleCompletedEvent } from '../src/events/sales-events';

type L = { product_id: number; mrp: string; quantity: string; cp: string; rate?: string };

function saleDoc(lines: L[], o: { discount: string; shipping: string; gst: boolean }) {
  const inv = o.gst
    ? computeInvoice({
        mode: 'gst',
        companyState: '27',
        customerGstin: null,
        customerState: '27',
        shipping: o.shipping,
        discount: o.discount,
        lines: lines.map((l) => ({ mrp: l.mrp, discount: '0', quantity: l.quantity, per_peice_quantity: '1', rate: l.rate, priceIncludesTax: true, hsn: '4412', unit: 'pcs' })),
      })
    : null;
  return {
    companyId: 1, saleId: 9, date: '2026-11-28', customer: { walkIn: true, name: 'Walk-in' }, clientId: 0,
    lines: lines.map((l, i) => ({ sl_no: i + 1, product_id: l.product_id, product_name: `P${l.product_id}`, unit: 'pcs', quantity: l.quantity, per_peice_quantity: '1', mrp: l.mrp, discount: '0', cp: l.cp })),
    subtotal: '0', tax: 0, taxAmount: '0', shipping: o.shipping, discount: o.discount, amount: '0', paid: '0', dueDate: '2026-11-28',
    gst: inv
      ? {
          tax_mode: 'gst', invoice_no: 'INV-9', inter_state: false, taxable_total: inv.taxable, cgst_total: inv.cgst, sgst_total: inv.sgst, igst_total: inv.igst, round_off: inv.roundOff,
          lines: inv.lines.map((g, i) => ({ sl_no: i + 1, gst_rate: g.rate, line_taxable: g.lineTaxable, share: g.share, taxable_value: g.taxable, cgst: g.cgst, sgst: g.sgst, igst: g.igst })),
        }
      : null,
  } as never;
}

const values = (doc: never) => saleCompletedEvent(doc).event.lines.map((l) => [l.line_taxable ?? null, l.net_value]);

describe('the sale event line net_value (profit value)', () => {
  it('GST: 2 plywood at 1,180.00 incl. 18 % are worth 2,000.00 (the 360.00 is tax)', () => {
    expect(values(saleDoc([{ product_id: 1, mrp: '1180', quantity: '2', cp: '800', rate: '18' }], { discount: '0', shipping: '0', gst: true }))).toEqual([['2000', '2000.00']]);
  });

  it('GST mixed bill: the discount comes off by taxable value, the shipping is not the goods', () => {
    // 10 x 118.00 incl. 18 % -> 1,000.00; 5 x 280.00 incl. 28 % -> 1,093.75; 50.00 off by 1,000 : 1,093.75
    // -> 23.88 and 26.12: 976.12 and 1,067.63 (the 100.00 shipping only raises the taxable values).
    const doc = saleDoc([{ product_id: 1, mrp: '118', quantity: '10', cp: '70', rate: '18' }, { product_id: 2, mrp: '280', quantity: '5', cp: '200', rate: '28' }], { discount: '50', shipping: '100', gst: true });
    expect(values(doc)).toEqual([['1000', '976.12'], ['1093.75', '1067.63']]);
  });

  it('simple mode: the line amounts less the discount by amount (the 18 % tax and shipping left out)', () => {
    // 2 x 100.00 and 4 x 25.00 with 30.00 off: 20.00 and 10.00 -> 180.00 and 90.00.
    const doc = saleDoc([{ product_id: 1, mrp: '100', quantity: '2', cp: '70' }, { product_id: 2, mrp: '25', quantity: '4', cp: '15' }], { discount: '30', shipping: '20', gst: false });
    expect(values(doc)).toEqual([[null, '180.00'], [null, '90.00']]);
  });
});
