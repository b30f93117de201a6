import request from 'supertest';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { JSONCodec } from 'nats';
import { Subjects } from '@bahi/contracts';
import { openTable } from '@bahi/tabular';
import { Movement } from '../src/schemas';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

let s: Stack;
const A = token(41, 'manager');
const STAFF = token(41, 'staff');
const B = token(42, 'manager');
const G = token(43, 'manager'); // a GST-mode company
const BIG = token(44, 'manager'); // GST mode, turnover above Rs 5 crore
let grocery: number;

beforeAll(async () => {
  s = await startInventory();
  const jc = JSONCodec();
  // Stands in for identity's company details (the tax mode decides the GST rules).
  s.nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = jc.decode(msg.data) as { id: string; data: { companyId: number } };
      const tax_mode = req.data.companyId === 43 || req.data.companyId === 44 ? 'gst' : 'simple';
      msg.respond(jc.encode({ id: req.id, response: { id: req.data.companyId, name: 'C', tax_mode, aato_above_5cr: req.data.companyId === 44 }, isDisposed: true }));
    },
  });
  await s.nc.flush();
  grocery = await makeCategory(s.url, A, 'Grocery');
  // Already in the catalogue: the sheet's row with this barcode updates it.
  await makeProduct(s.url, A, { catagory: grocery, name: 'Old Sugar', barcode: '8900000000017', mrp: '40', cp: '35', unit: 'kg' });
});
afterAll(() => s?.stop());

const get = (path: string, t = A) => request(s.url).get(path).set(auth(t));
const post = (path: string, body: unknown, t = A) => request(s.url).post(path).set(auth(t)).send(body as object);
const upload = (content: Buffer | string, name: string, t = A) =>
  request(s.url).post('/imports/products').set(auth(t)).attach('file', Buffer.isBuffer(content) ? content : Buffer.from(content), name);

async function waitDone(id: string, t = A) {
  for (let i = 0; i < 200; i++) {
    const r = await get(`/imports/products/${id}`, t);
    if (r.body.state !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('import did not finish');
}

const movements = () => s.svc.app.get<Model<Movement>>(getModelToken(Movement.name)).collection;

async function movementsOf(companyId: number, productId: number) {
  return movements().find({ companyId, product_id: productId }).toArray();
}

const HEADER = 'Item Name,Brand,Category,MRP,Purchase Price,Unit,Barcode,HSN,GST %,Opening Stock,Min Stock';
// Row numbers in the file: the header is row 1.
const GOOD = [
  'Basmati Rice 5kg,India Gate,Grocery,612.50,540.25,bag,8901234567890,1006,5%,12,4', // row 2
  'Toor Dal 1kg,Tata,Pulses,"1,60.00",138,kg,,0713,5,7.5,', // row 3 (new category Pulses; Indian grouping in MRP)
  'Sugar 1kg,Madhur,Grocery,48,42,kg,8900000000017,,0,20,5', // row 4: updates Old Sugar by barcode
];
const BAD = [
  ',Tata,Grocery,10,8,kg,,,,,', // row 5: no name
  'Salt,Tata,Grocery,abc,-1,kg,,,150,x,', // row 6: MRP, cost, tax, stock
  'Oil,Fortune,Grocery,200,180,kg,8901234567890,,,,', // row 7: barcode already on row 2
];

describe('product import', () => {
  let id: string;

  it('uploads a CSV (told by content, not by name): headers, guessed mapping, preview', async () => {
    const r = await upload([HEADER, ...GOOD, ...BAD].join('\n'), 'items.xlsx');
    expect(r.status).toBe(200);
    id = r.body.id;
    expect(r.body).toMatchObject({ kind: 'products', format: 'csv', total: 6, fileName: 'items.xlsx' });
    expect(r.body.mapping).toEqual({ name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, barcode: 6, hsn_code: 7, tax: 8, stock: 9, min_stock: 10 });
    expect(r.body.preview[0]).toEqual({ row: 2, values: GOOD[0]!.split(',') });
    expect(r.body.preview).toHaveLength(6);
  });

  it('refuses what is not a spreadsheet, an empty upload, and staff', async () => {
    const pdf = await upload(Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0, 0, 1]), 'items.csv');
    expect(pdf.status).toBe(400);
    expect(pdf.body.message).toBe('This file is not a CSV or XLSX spreadsheet.');
    const none = await request(s.url).post('/imports/products').set(auth(A)).field('x', '1');
    expect(none.status).toBe(400);
    expect((await upload('a,b\n1,2', 'x.csv', STAFF)).status).toBe(403);
    expect((await get(`/imports/products/${id}`, STAFF)).status).toBe(403);
  });

  it('reports every bad cell with its row number, duplicates in the file on the later row, and counts updates', async () => {
    const mapping = (await get(`/imports/products/${id}`)).body;
    expect(mapping.state).toBe('uploaded');
    const r = await post(`/imports/products/${id}/validate`, {
      mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, barcode: 6, hsn_code: 7, tax: 8, stock: 9, min_stock: 10 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: 6, valid: 3, invalid: 3, updates: 1, creates: ['Pulses'] });
    expect(r.body.errors).toEqual([
      { row: 5, field: 'Product name', reason: 'Product name is required.' },
      { row: 6, field: 'MRP', reason: 'MRP must be a number.' },
      { row: 6, field: 'Cost price', reason: 'Cost price cannot be negative.' },
      { row: 6, field: 'GST %', reason: 'tax must be a percent between 0 and 100.' },
      { row: 6, field: 'Opening stock', reason: 'Stock must be a number.' },
      { row: 7, field: 'Barcode', reason: 'Barcode 8901234567890 is already on row 2 of this file.' },
    ]);
  });

  it('checks the mapping: required fields, one column per field, columns of the file', async () => {
    const r = await post(`/imports/products/${id}/validate`, { mapping: { name: 0, mrp: 3 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Choose a column for Category, Brand, Cost price, Unit.');
    const twice = await post(`/imports/products/${id}/validate`, { mapping: { name: 0, brand_name: 0, category: 2, mrp: 3, cp: 4, unit: 5 } });
    expect(twice.body.message).toBe('Product name and Brand cannot both come from the same column.');
    expect((await post(`/imports/products/${id}/run`, { mapping: {}, mode: 'sometimes' })).status).toBe(400);
  });

  it('all-or-nothing with bad rows imports nothing', async () => {
    const before = (await get('/getProductList')).body.count;
    const r = await post(`/imports/products/${id}/run`, { mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, barcode: 6, hsn_code: 7, tax: 8, stock: 9, min_stock: 10 }, mode: 'all' });
    expect(r.status).toBe(202);
    const st = await waitDone(id);
    expect(st.state).toBe('failed');
    expect(st.message).toBe('Nothing was imported: 3 of 6 rows have errors. Fix them, or import the valid rows only.');
    expect(st.created + st.updated).toBe(0);
    expect((await get('/getProductList')).body.count).toBe(before);
    expect((await get('/getCategoryBrand')).body.cat.map((c: { name: string }) => c.name)).not.toContain('Pulses');
  });

  it('imports the valid rows: new products with opening stock movements, the barcode match updated, a new category', async () => {
    const r = await post(`/imports/products/${id}/run`, { mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, barcode: 6, hsn_code: 7, tax: 8, stock: 9, min_stock: 10 }, mode: 'valid' });
    expect(r.status).toBe(202);
    const st = await waitDone(id);
    expect(st).toMatchObject({ state: 'done', done: 6, total: 6, created: 2, updated: 1, skipped: 3 });
    const list = (await get('/getProductList?text=basmati')).body.list;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ product_name: 'Basmati Rice 5kg', brand_name: 'India Gate', category: 'Grocery', mrp: '612.50', cp: '540.25', unit: 'bag', stock: '12', min_stock: '4', tax_percent: '5', hsn_code: '1006' });
    const dal = (await get('/getProductList?text=toor')).body.list[0];
    expect(dal).toMatchObject({ category: 'Pulses', mrp: '160.00', cp: '138.00', stock: '7.5' });
    const sugar = (await get('/getProductList?text=sugar')).body.list;
    expect(sugar).toHaveLength(1);
    expect(sugar[0]).toMatchObject({ product_name: 'Sugar 1kg', brand_name: 'Madhur', mrp: '48.00', cp: '42.00', stock: '20', min_stock: '5' });
    // Stock is the sum of the movements: one adjustment each for the opening stock.
    for (const p of [list[0], dal, sugar[0]]) {
      const ms = await movementsOf(41, p.product_id);
      expect(ms.map((m) => m.kind)).toEqual(['adjustment']);
      expect(ms.reduce((t, m) => t + m.qty_m, 0) / 1000).toBe(Number(p.stock));
    }
    const hist = (await get(`/getProductHistory?id=${list[0].product_id}`)).body.result;
    expect(hist).toEqual([expect.objectContaining({ type: 'Adjustment', Qty: '12', Rate: '540.25', Stock: '12' })]);
    // Totals at cost: 12 x 540.25 = 6483.00; 7.5 x 138 = 1035.00; 20 x 42 = 840.00 -> 8358.00.
    const all = (await get('/getProductList')).body;
    expect(all).toMatchObject({ count: 3, totalStock: '39.5', totalAmount: '8358.00' });
  });

  it('a repeated run of the same import posts nothing twice', async () => {
    const again = await post(`/imports/products/${id}/run`, { mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5 }, mode: 'valid' });
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ state: 'done', created: 2, updated: 1 });
    expect((await get('/getProductList')).body.count).toBe(3);
    expect(await movements().countDocuments({ companyId: 41 })).toBe(3);
  });

  it('re-importing the same file updates by barcode; a changed stock moves by the difference only', async () => {
    const sheet = [HEADER, GOOD[0]!.replace(',12,4', ',15,4'), GOOD[2]].join('\n');
    const up = await upload(sheet, 'again.csv');
    const run = await post(`/imports/products/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'all' });
    expect(run.status).toBe(202);
    expect(await waitDone(up.body.id)).toMatchObject({ state: 'done', created: 0, updated: 2 });
    expect((await get('/getProductList')).body.count).toBe(3);
    const rice = (await get('/getProductList?text=basmati')).body.list[0];
    expect(rice.stock).toBe('15');
    const ms = await movementsOf(41, rice.product_id);
    expect(ms.map((m) => m.qty_m)).toEqual([12000, 3000]);
    const sugar = (await get('/getProductList?text=sugar')).body.list[0];
    expect(await movementsOf(41, sugar.product_id)).toHaveLength(1);
  });

  it('a stock sold and then re-imported: the history lists the sale and the import in that order', async () => {
    const rice = (await get('/getProductList?text=basmati')).body.list[0];
    const sale = await s.ask('inventory.stock.apply', { companyId: 41, source: { kind: 'sale', id: 1 }, lines: [{ product_id: rice.product_id, quantity: '2', rate: '612.50' }] });
    expect(sale.movements.map((m: { stock: string }) => m.stock)).toEqual(['13']);
    // The file still says 15: the import moves the 13 back up by 2, after the sale.
    const sheet = [HEADER, GOOD[0]!.replace(',12,4', ',15,4')].join('\n');
    const up = await upload(sheet, 'after-sale.csv');
    expect((await post(`/imports/products/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'all' })).status).toBe(202);
    expect(await waitDone(up.body.id)).toMatchObject({ state: 'done', created: 0, updated: 1 });
    const hist = (await get(`/getProductHistory?id=${rice.product_id}`)).body.result;
    expect(hist.map((h: { type: string; Qty: string; Stock: string }) => [h.type, h.Qty, h.Stock])).toEqual([
      ['Adjustment', '2', '15'],
      ['Sell', '-2', '13'],
      ['Adjustment', '3', '15'],
      ['Adjustment', '12', '12'],
    ]);
  });

  it('keeps companies apart: another company cannot read, validate or run this import', async () => {
    expect((await get(`/imports/products/${id}`, B)).status).toBe(404);
    expect((await post(`/imports/products/${id}/validate`, { mapping: {} }, B)).status).toBe(404);
    expect((await post(`/imports/products/${id}/run`, { mapping: {}, mode: 'valid' }, B)).status).toBe(404);
    expect((await get('/getProductList', B)).body.count).toBe(0);
    expect((await get('/imports/products/not-an-id')).status).toBe(404);
  });

  it('applies the GST rules of a GST-mode company (rate and HSN)', async () => {
    const up = await upload('Name,Brand,Category,MRP,Cost,Unit,HSN,GST %\nSoap,Lux,Toiletries,40,30,pcs,12,7\nShampoo,Dove,Toiletries,250,200,pcs,3305,18\n', 'gst.csv', G);
    const v = await post(`/imports/products/${up.body.id}/validate`, { mapping: up.body.mapping }, G);
    expect(v.body).toMatchObject({ valid: 1, invalid: 1 });
    expect(v.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [2, 'GST %'],
      [2, 'HSN code'],
    ]);
    expect(v.body.errors[0].reason).toMatch(/^7 % is not a GST rate/);
    expect(v.body.errors[1].reason).toMatch(/HSN/);
  });

  it('checks HSN codes against the HSN list, and 6 digits above Rs 5 crore of turnover', async () => {
    const sheet = 'Name,Brand,Category,MRP,Cost,Unit,HSN,GST %\nBottle,Milton,Kitchen,590,400,pcs,7323,18\nBox,Milton,Kitchen,200,150,pcs,7700,18\nFlask,Milton,Kitchen,900,700,pcs,732393,18\n';
    const small = await upload(sheet, 'hsn.csv', G);
    const v = await post(`/imports/products/${small.body.id}/validate`, { mapping: small.body.mapping }, G);
    expect(v.body).toMatchObject({ valid: 2, invalid: 1 });
    expect(v.body.errors.map((e: { row: number; reason: string }) => [e.row, e.reason])).toEqual([[3, "HSN code '7700' is not in the HSN list: there is no chapter 77."]]);
    const big = await upload(sheet, 'hsn.csv', BIG);
    const w = await post(`/imports/products/${big.body.id}/validate`, { mapping: big.body.mapping }, BIG);
    expect(w.body).toMatchObject({ valid: 1, invalid: 2 });
    expect(w.body.errors.map((e: { row: number; reason: string }) => [e.row, e.reason])).toEqual([
      [2, "HSN code '7323' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax)."],
      [3, "HSN code '7700' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax)."],
    ]);
  });
});

/** An XLSX as another program writes it: inline strings, numbers, a barcode as a number. */
async function otherProgramXlsx(): Promise<Buffer> {
  const zip = new JSZip();
  const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  zip.file('[Content_Types].xml', `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`);
  zip.file('_rels/.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  zip.file('xl/workbook.xml', `<?xml version="1.0"?><workbook xmlns="${ns}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Stock" sheetId="1" r:id="r1"/></sheets></workbook>`);
  zip.file('xl/_rels/workbook.xml.rels', `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`);
  const str = (ref: string, v: string) => `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
  const num = (ref: string, v: number) => `<c r="${ref}"><v>${v}</v></c>`;
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0"?><worksheet xmlns="${ns}"><sheetData>` +
      `<row r="1">${['Product', 'Brand Name', 'Category', 'M.R.P.', 'Cost', 'UOM', 'Bar Code', 'Opening Qty'].map((h, i) => str(`${'ABCDEFGH'[i]}1`, h)).join('')}</row>` +
      `<row r="2">${str('A2', 'Ghee 1L')}${str('B2', 'Amul')}${str('C2', 'Dairy')}${num('D2', 650)}${num('E2', 598.5)}${str('F2', 'litre')}${num('G2', 8901262150019)}${num('H2', 6)}</row>` +
      `</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('XLSX from another program and exports', () => {
  it('imports an XLSX written by another program', async () => {
    const up = await upload(await otherProgramXlsx(), 'stock.xlsx', B);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ format: 'xlsx', total: 1, mapping: { name: 0, brand_name: 1, category: 2, mrp: 3, cp: 4, unit: 5, barcode: 6, stock: 7 } });
    await post(`/imports/products/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'all' }, B);
    expect(await waitDone(up.body.id, B)).toMatchObject({ state: 'done', created: 1 });
    const p = (await get('/getProductList', B)).body.list[0];
    expect(p).toMatchObject({ product_name: 'Ghee 1L', mrp: '650.00', cp: '598.50', stock: '6', category: 'Dairy' });
    const lookup = await s.ask(Subjects.inventory.productLookup, { companyId: 42, code: '8901262150019' });
    expect(lookup.product_name ?? lookup.product?.product_name).toBe('Ghee 1L');
  });

  it('exports the product list with its filters as CSV and XLSX (numbers as numbers), for staff too; the stock book for managers', async () => {
    const csv = await get('/export/products?brand=Tata&format=csv', STAFF).buffer(true);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="products-\d{4}-\d{2}-\d{2}\.csv"$/);
    const t = await openTable(Buffer.from(csv.text, 'utf8'));
    expect(t.headers.slice(0, 9)).toEqual(['Product ID', 'Product name', 'Brand', 'Category', 'Unit', 'Quantity per piece', 'MRP', 'Cost price', 'Opening stock']);
    const rows = [];
    for await (const r of t.rows) rows.push(r.values);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(1, 9)).toEqual(['Toor Dal 1kg', 'Tata', 'Pulses', 'kg', '1', '160.00', '138.00', '7.5']);

    const xlsx = await get('/export/products?format=xlsx').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(xlsx.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount).toBe(4);
    const byName = new Map<string, ExcelJS.Row>();
    ws.eachRow((r, n) => n > 1 && byName.set(String(r.getCell(2).value), r));
    expect(byName.get('Basmati Rice 5kg')!.getCell(7).value).toBe(612.5);
    expect(byName.get('Basmati Rice 5kg')!.getCell(9).value).toBe(15);

    expect((await get(`/export/stockBook?category=${grocery}&format=csv`, STAFF)).status).toBe(403);
    const sb = await get(`/export/stockBook?category=${grocery}&format=csv`);
    expect(sb.status).toBe(200);
    expect(sb.text.split('\r\n').filter(Boolean)).toHaveLength(3); // header, rice, sugar
    expect((await get('/export/stockBook?format=csv')).body.message).toBe('Please Select A Category.');
    expect((await get('/export/products?format=pdf')).status).toBe(400);
    // The purchase list: managers only; this company has no purchases, so the header row alone.
    expect((await get('/export/purchases?format=csv', STAFF)).status).toBe(403);
    const pu = await get('/export/purchases?format=csv').buffer(true);
    expect(pu.status).toBe(200);
    expect(pu.text).toBe('\uFEFFPurchase ID,Date,Distributor,Total amount,Paid,Due date\r\n');
    expect((await get('/export/debitNotes?format=csv', STAFF)).status).toBe(403);
    expect((await get('/export/debitNotes?format=csv').buffer(true)).text).toBe('\uFEFFDebit note no,Date,Purchase ID,Distributor,Amount,Refund\r\n');
  });
});
