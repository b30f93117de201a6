import { openTable } from '@bahi/tabular';
import { as, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;

beforeAll(async () => {
  s = await startSales();
});
afterAll(() => s?.stop());

describe('sales list export', () => {
  it('exports every complete bill, newest first, with Indian dates and amounts as numbers', async () => {
    const mgr = tokenFor(s.companyId, 'manager');
    const A = as(s.url, tokenFor(s.companyId));
    const cat = await category(s.inventory.url, mgr, 'Stationery');
    const pen = await product(s.inventory.url, mgr, cat, { name: 'Gel Pen', mrp: '12.50', unit: 'pcs', stock: '100' });
    const ravi = await customer(s.ledger.url, mgr, 'Ravi Stores', '9876511111');
    const penLine = (await A.get(`/addProductIntoCart/${encodeURIComponent(`4*${pen}`)}`).expect(200)).body[0][0].sl_no;
    const one = await A.post('/MAKE_SALE', { clientId: ravi, cart_no: 1, paid: '20', dueDate: '2030-01-31', date: '2030-01-05' }).expect(200);
    await A.get(`/addProductIntoCart/${encodeURIComponent(`2*${pen}`)}`).expect(200);
    const two = await A.post('/MAKE_SALE', { clientId: ravi, cart_no: 1, paid: '25', date: '2030-02-10' }).expect(200);

    const r = await A.get('/export/sales?format=csv').buffer(true).expect(200);
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="sales-\d{4}-\d{2}-\d{2}\.csv"$/);
    const t = await openTable(Buffer.from(r.text));
    expect(t.headers).toEqual(['Bill no', 'Date', 'Invoice no', 'Customer', 'Total amount', 'Paid', 'Status']);
    const rows: string[][] = [];
    for await (const row of t.rows) rows.push(row.values);
    // 4 x 12.50 = 50.00 and 2 x 12.50 = 25.00 (simple mode, no tax on the cart).
    expect(rows).toEqual([
      [String(two.body.saleId), '10-02-2030', '', 'Ravi Stores', '25.00', '25.00', ''],
      [String(one.body.saleId), '05-01-2030', '', 'Ravi Stores', '50.00', '20.00', ''],
    ]);
    expect((await A.get('/export/sales?format=ods').expect(400)).body.message).toBe('format must be csv or xlsx.');

    // A return of one pen of the first bill: a credit note of 12.50 (1 x 12.50), 5 refunded.
    const M = as(s.url, mgr);
    const ret = await M.post('/salesReturn', { saleId: one.body.saleId, lines: [{ sl_no: penLine, quantity: 1 }], refund: '5', idempotencyKey: 'export-return-1' });
    expect([ret.status, ret.body.message]).toEqual([200, undefined]);
    const cn = await A.get('/export/creditNotes?format=csv').buffer(true).expect(200);
    const cnRows = cn.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(cnRows[0]).toBe('Credit note no,Date,Bill no,Invoice no,Customer,Amount,Refund');
    expect(cnRows).toHaveLength(2);
    expect(cnRows[1]).toMatch(new RegExp(`^[^,]+,\\d{2}-\\d{2}-\\d{4},${one.body.saleId},,Ravi Stores,12.50,5.00$`));
    // The bill now reads Partly returned in the sales export.
    const after = await A.get('/export/sales?format=csv').buffer(true).expect(200);
    expect(after.text).toContain(`${one.body.saleId},05-01-2030,,Ravi Stores,50.00,20.00,Partly returned`);
    // Another company's export is its own (empty).
    const other = as(s.url, tokenFor(s.companyId + 1000));
    const empty = await other.get('/export/sales').buffer(true).expect(200);
    expect(empty.text.trim().split('\r\n')).toHaveLength(1);
  });
});

describe('estimate list export', () => {
  it('exports every estimate, newest first, priced for its customer as the list is', async () => {
    const mgr = tokenFor(s.companyId, 'manager');
    const A = as(s.url, tokenFor(s.companyId));
    const cat = await category(s.inventory.url, mgr, 'Notebooks');
    const book = await product(s.inventory.url, mgr, cat, { name: 'Long Book', mrp: '45', unit: 'pcs', stock: '50' });
    const asha = await customer(s.ledger.url, mgr, 'Asha Traders', '9876522222');
    await A.get(`/addProductIntoCart/${encodeURIComponent(`3*${book}`)}`).expect(200);
    const first = await A.get(`/createEstimate?cart_no=1&clientId=${asha}`).expect(200);
    await A.get(`/addProductIntoCart/${encodeURIComponent(`1*${book}`)}`).expect(200);
    const second = await A.get('/createEstimate?cart_no=1').expect(200);
    const list = (await A.get('/getEstimateList?pageNo=0').expect(200)).body.estimateList as { id: number; 'Total Amount': number }[];

    const r = await A.get('/export/estimates?format=csv').buffer(true).expect(200);
    const t = await openTable(Buffer.from(r.text));
    expect(t.headers).toEqual(['Estimate no', 'Date', 'Customer', 'Total amount']);
    const rows: string[][] = [];
    for await (const row of t.rows) rows.push(row.values);
    // 1 x 45 = 45.00 for the walk-in, 3 x 45 = 135.00 for Asha: the list's totals.
    expect(rows.map((x) => [x[0], x[2], x[3]])).toEqual([
      [String(second.body.estimateId), 'Unknown', '45.00'],
      [String(first.body.estimateId), 'Asha Traders', '135.00'],
    ]);
    expect(list.map((e) => e['Total Amount'])).toEqual([45, 135]);
  });
});
