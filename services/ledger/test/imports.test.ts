import request from 'supertest';
import { openTable } from '@bahi/tabular';
import { startLedger, tokenFor, type Stack } from './helpers';

let s: Stack;
const M = tokenFor(1, 'manager');
const STAFF = tokenFor(1, 'staff');
const OTHER = tokenFor(2, 'manager');

beforeAll(async () => {
  s = await startLedger();
});
afterAll(() => s?.stop());

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
const get = (path: string, t = M) => request(s.url).get(path).set(bearer(t));
const post = (path: string, body: unknown, t = M) => request(s.url).post(path).set(bearer(t)).send(body as object);
const upload = (kind: string, text: string, t = M) => request(s.url).post(`/imports/${kind}`).set(bearer(t)).attach('file', Buffer.from(text), `${kind}.csv`);

async function finish(kind: string, id: string, t = M) {
  for (let i = 0; i < 200; i++) {
    const r = await get(`/imports/${kind}/${id}`, t);
    if (r.body.state !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('import did not finish');
}

async function importAll(kind: string, text: string, mode: 'valid' | 'all' = 'valid', t = M) {
  const up = await upload(kind, text, t);
  expect(up.status).toBe(200);
  const run = await post(`/imports/${kind}/${up.body.id}/run`, { mapping: up.body.mapping, mode }, t);
  expect(run.status).toBe(202);
  return { up: up.body, done: await finish(kind, up.body.id, t) };
}

const CUSTOMERS = [
  'Customer Name,Mobile No,Address,City,State,Pincode,GSTIN,Opening Balance',
  'Asha Traders,9876500001,12 MG Road,Pune,Maharashtra,411001,27AAPFU0939F1ZV,"1,250.50"', // row 2
  'Ravi Kumar,9876500002,5 Park St,Kolkata,West Bengal,700016,,0', // row 3
  'No Mobile,98765,1 Road,Pune,Maharashtra,411001,,', // row 4: mobile
  ',9876500004,1 Road,Pune,Maharashtra,41100A,,12.345', // row 5: name, PIN, opening balance
  'Asha Again,9876500001,9 Road,Pune,Maharashtra,411002,,', // row 6: mobile already on row 2
  'Wrong State,9876500006,1 Road,Pune,Maharashtra,411001,19AAPFU0939F1ZV,', // row 7: GSTIN of West Bengal
].join('\n');

describe('customer import', () => {
  let asha: number;

  it('guesses the mapping and reports bad rows with the customer form\'s messages', async () => {
    const up = await upload('customers', CUSTOMERS);
    expect(up.body.mapping).toEqual({ name: 0, mobile_no: 1, address_line_1: 2, city_or_district: 3, state: 4, postal_code: 5, gstin: 6, opening_balance: 7 });
    const v = await post(`/imports/customers/${up.body.id}/validate`, { mapping: up.body.mapping });
    expect(v.status).toBe(200);
    expect(v.body).toMatchObject({ total: 6, valid: 2, invalid: 4, updates: 0 });
    const byRow = (row: number) => v.body.errors.filter((e: { row: number }) => e.row === row).map((e: { field: string }) => e.field);
    expect(byRow(4)).toEqual(['Mobile']);
    expect(byRow(5)).toEqual(['Name', 'PIN code', 'Opening balance']);
    expect(v.body.errors.find((e: { row: number }) => e.row === 6)).toEqual({ row: 6, field: 'Mobile', reason: 'Mobile number 9876500001 is already on row 2 of this file.' });
    expect(byRow(7)).toEqual(['GSTIN']);
    expect(v.body.errors.find((e: { row: number }) => e.row === 4).reason).toBe('mobile_no must be a 10-digit mobile number.');
  });

  it('all-or-nothing imports nothing while a row is bad', async () => {
    const { done } = await importAll('customers', CUSTOMERS, 'all');
    expect(done).toMatchObject({ state: 'failed', created: 0 });
    expect((await get('/getClientsList')).body.clientsList).toHaveLength(0);
  });

  it('imports the valid rows; the opening balance is an opening entry on the account', async () => {
    const { done } = await importAll('customers', CUSTOMERS, 'valid');
    expect(done).toMatchObject({ state: 'done', created: 2, updated: 0, skipped: 4 });
    const found = (await get('/getCustomerList?text=9876500001')).body;
    expect(found).toHaveLength(1);
    asha = found[0].client_id;
    expect(found[0]).toMatchObject({ name: 'Asha Traders', gstin: '27AAPFU0939F1ZV', state: 'Maharashtra', city_or_district: 'Pune', country: 'India' });
    expect((await get(`/getClientDue?custId=${asha}`)).body).toEqual({ due: 1250.5 });
    const hist = (await get(`/getAllClientsHistory?id=${asha}`)).body;
    expect(JSON.stringify(hist)).toContain('Opening Balance');
  });

  it('re-importing updates by mobile and does not post the opening balance again', async () => {
    const text = ['Name,Mobile,Address line 1,City,State,PIN,Opening balance', 'Asha Traders Pvt,9876500001,14 MG Road,Pune,Maharashtra,411001,1250.50'].join('\n');
    const { done } = await importAll('customers', text, 'all');
    expect(done).toMatchObject({ state: 'done', created: 0, updated: 1 });
    expect((await get(`/getClientsDetails?id=${asha}`)).body.data).toMatchObject({ name: 'Asha Traders Pvt', address_line_1: '14 MG Road' });
    expect((await get(`/getClientDue?custId=${asha}`)).body).toEqual({ due: 1250.5 });
    expect((await get('/getCustomerList?text=9876500001')).body).toHaveLength(1);
  });

  it('is for managers, and keeps companies apart', async () => {
    expect((await upload('customers', CUSTOMERS, STAFF)).status).toBe(403);
    const up = await upload('customers', CUSTOMERS);
    expect((await get(`/imports/customers/${up.body.id}`, OTHER)).status).toBe(404);
    expect((await get(`/imports/distributors/${up.body.id}`)).status).toBe(404);
    expect((await get('/getCustomerList?text=9876500001', OTHER)).body).toHaveLength(0);
  });

  it("exports a customer's account with the running due, and refuses another company's customer", async () => {
    const r = await get(`/export/customerHistory?id=${asha}&format=csv`, STAFF).buffer(true);
    expect(r.status).toBe(200);
    const lines = r.text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Date,Type,Ref,Document no,Amount,Paid,Due after,Due date');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\d{2}-\d{2}-\d{4},Opening Balance,,,1250.50,0.00,1250.50,$/);
    expect((await get(`/export/customerHistory?id=${asha}&format=csv`, OTHER)).status).toBe(404);
    expect((await get('/export/customerHistory?format=csv')).status).toBe(400);
  });

  it('exports the customer list with dues as CSV (staff too)', async () => {
    const r = await get('/export/customers?format=csv', STAFF).buffer(true);
    expect(r.status).toBe(200);
    const t = await openTable(Buffer.from(r.text));
    expect(t.headers).toEqual(['Customer ID', 'Name', 'Mobile', 'Address line 1', 'Address line 2', 'City or district', 'State', 'PIN code', 'Country', 'GSTIN', 'Due']);
    const rows: string[][] = [];
    for await (const row of t.rows) rows.push(row.values);
    // Newest first, as the list: Ravi then Asha.
    expect(rows.map((v) => [v[1], v[2], v[6], v[10]])).toEqual([
      ['Ravi Kumar', '9876500002', 'West Bengal', '0.00'],
      ['Asha Traders Pvt', '9876500001', 'Maharashtra', '1250.50'],
    ]);
  });
});

describe('distributor import', () => {
  it('matches by GSTIN, else by name and city; opening balances post once', async () => {
    const first = [
      'Supplier Name,Address,City,State,PIN,GSTIN,Opening Balance',
      'Sharma Wholesale,1 Mandi,Pune,Maharashtra,411002,27AAPFU0939F1ZV,5000', // row 2
      'Gupta Agencies,2 Bazar,Nagpur,Maharashtra,440001,,700.25', // row 3
      'gupta agencies,3 Bazar,NAGPUR,Maharashtra,440001,,', // row 4: same name and city as row 3
    ].join('\n');
    const a = await importAll('distributors', first, 'valid');
    expect(a.up.mapping).toEqual({ name: 0, address_line_1: 1, city_or_district: 2, state: 3, postal_code: 4, gstin: 5, opening_balance: 6 });
    expect(a.done).toMatchObject({ state: 'done', created: 2, skipped: 1 });
    expect(a.done.report.errors).toEqual([{ row: 4, field: 'Name', reason: 'The same distributor is already on row 3 of this file.' }]);
    const second = [
      'Supplier Name,Address,City,State,PIN,GSTIN,Opening Balance',
      'Sharma Wholesale & Sons,1 Mandi,Pune,Maharashtra,411002,27AAPFU0939F1ZV,5000', // same GSTIN: update, renamed
      'GUPTA AGENCIES,9 Bazar,Nagpur,Maharashtra,440001,,700.25', // same name+city: update
      'Verma Stores,4 Chowk,Nagpur,Maharashtra,440002,,', // new
    ].join('\n');
    const b = await importAll('distributors', second, 'all');
    expect(b.done).toMatchObject({ state: 'done', created: 1, updated: 2 });
    const list = (await get('/getAllDistributorsList')).body;
    const names = list.allDistributorsList.map((d: { name: string }) => d.name).sort();
    expect(names).toEqual(['GUPTA AGENCIES', 'Sharma Wholesale & Sons', 'Verma Stores']);
    const csv = (await get('/export/distributors?format=csv').buffer(true)).text;
    // Dues: Sharma 5000.00 and Gupta 700.25, once each despite the second file.
    expect(csv).toContain('Sharma Wholesale & Sons,1 Mandi,,Pune,Maharashtra,411002,India,27AAPFU0939F1ZV,5000.00');
    expect(csv).toContain('GUPTA AGENCIES,9 Bazar,,Nagpur,Maharashtra,440001,India,,700.25');
    expect((await get('/export/distributors?format=csv', STAFF)).status).toBe(403);
  });
});
