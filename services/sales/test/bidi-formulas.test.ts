// Names with bidi controls are saved without them (delivery details), and the GSTR-1 CSV, like
// every export, carries no live formula: a buyer named =HYPERLINK(...) is written as text.
import request from 'supertest';
import { today } from '@bahi/service-kit';
import { as, auth, category, product, startSales, tokenFor, type Stack } from './helpers';

const GSTIN_MH = '27AAPFU0939F1ZV';
const GSTIN_GJ = '24AAGCS5678K1ZT';
const RLO = '\u202E';
const PDF = '\u202C';

let s: Stack;
let mgr: string;
let A: ReturnType<typeof as>;
let M: ReturnType<typeof as>;
let bottle: number;

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  A = as(s.url, tokenFor(s.companyId));
  M = as(s.url, mgr);
  const cat = await category(s.inventory.url, mgr, 'Steel');
  // 590.00 including 18 %: taxable 500.00, IGST 90.00 to Gujarat.
  bottle = await product(s.inventory.url, mgr, cat, { name: 'Steel Bottle', mrp: '590', tax: '18', hsn_code: '7323', unit: 'pcs', stock: '100' });
}, 120_000);
afterAll(() => s?.stop());

describe('sales: delivery details without bidi controls', () => {
  it("the transporter's name and the mode are saved without them", async () => {
    await A.get(`/addProductIntoCart/${bottle}`).expect(200);
    const saleId = (await A.post('/MAKE_SALE', { paid: '590' }).expect(200)).body.saleId;
    const body = { sale_id: saleId, transporter_name: `Shree ${RLO}scitsigoL${PDF}`, mobile: '9820011223', address: `${RLO}road`, vehicleNumber: 'MH12 AB 1234', dispatched_date: '2030-01-02' };
    const r = await A.post('/delivery', body).expect(200);
    expect(r.body.data).toMatchObject({ transporter_name: 'Shree scitsigoL', mode_of_transport: 'ROAD' });
    const again = (await A.get(`/addDelivery/${saleId}`).expect(200)).body.data;
    expect(JSON.stringify(again)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});

describe('GSTR-1 CSV through the one writer', () => {
  it('a B2B buyer named =HYPERLINK(...) is written as text, its amounts as numbers', async () => {
    await request(s.identity.url).post('/setCompanyDetails').set(auth(mgr))
      .send({ id: s.companyId, name: 'Sharma General Store', add1: '4 Station Road', add2: 'Pune', mob1: '9822001122', mob2: '', email: 'shop@sharma.in', tax_mode: 'gst', gstin: GSTIN_MH, invoice_prefix: 'SG' })
      .expect(200);
    const evil = '=HYPERLINK("http://ev.il","Pay")';
    const c = await request(s.ledger.url).post('/clients/addClient').set(auth(mgr)).send({
      mobile_no: '9876500024', name: evil, address_line_1: '9 Ring Road', address_line_2: '', city_or_district: 'Surat', state: 'GJ', country: 'India', postal_code: '395003', gstin: GSTIN_GJ,
    });
    expect(c.status).toBe(200);
    await A.get(`/addProductIntoCart/${bottle}`).expect(200);
    const sale = await A.post('/MAKE_SALE', { clientId: c.body.id, paid: '0' });
    expect(sale.status).toBe(200);
    const period = today().slice(0, 7);
    const csv = await M.get(`/gst/gstr1?period=${period}&format=csv&section=b2b`).expect(200);
    const rows = csv.text.split('\r\n').filter((l) => l.includes('ev.il'));
    expect(rows).toHaveLength(1);
    // RFC 4180 quoting around the guarded text; invoice value 590.00, rate 18, taxable 500.00 stay plain numbers.
    expect(rows[0]).toMatch(/^24AAGCS5678K1ZT,"'=HYPERLINK\(""http:\/\/ev\.il"",""Pay""\)",SG\/\d\d-\d\d\/\d{4},\d\d-[A-Z][a-z]{2}-\d{4},590\.00,24-Gujarat,N,,Regular B2B,,18,500\.00,$/);
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
