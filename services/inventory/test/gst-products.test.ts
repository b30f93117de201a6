import request from 'supertest';
import { JSONCodec } from 'nats';
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Subjects } from '@bahi/contracts';
import { Product } from '../src/schemas';
import { auth, makeCategory, makeProduct, startInventory, token, type Stack } from './helpers';

// Company 1 is simple (identity's reply has no tax_mode, as before GST mode), 2 is in GST mode,
// 3 is a composition dealer; company 4 has identity answering 503 for it.
const SIMPLE = 1;
const GST = 2;
const COMPOSITION = 3;
const DOWN = 4;
/** GST mode, aggregate turnover above Rs 5 crore (identity's aato_above_5cr). */
const BIG = 5;
const MODES: Record<number, string | undefined> = { [SIMPLE]: undefined, [GST]: 'gst', [COMPOSITION]: 'composition', [BIG]: 'gst' };

let s: Stack;
const asked: number[] = [];
const M = token(SIMPLE, 'manager');
const G = token(GST, 'manager');
const GSTAFF = token(GST, 'staff');
const C = token(COMPOSITION, 'manager');
const D = token(DOWN, 'manager');
const B = token(BIG, 'manager');
const cat: Record<number, number> = {};

beforeAll(async () => {
  s = await startInventory();
  // Stands in for identity on identity.company.details: a real NATS responder, as identity answers it.
  const jc = JSONCodec();
  s.nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = jc.decode(msg.data) as { id: string; data: { companyId: number } };
      const companyId = req.data.companyId;
      asked.push(companyId);
      if (companyId === DOWN) return msg.respond(jc.encode({ id: req.id, err: { status: 503, message: 'identity is restarting.' }, isDisposed: true }));
      const mode = MODES[companyId];
      const details = { id: companyId, name: `Company ${companyId}`, add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: null, ...(mode ? { tax_mode: mode } : {}), ...(companyId === BIG ? { aato_above_5cr: true } : {}) };
      msg.respond(jc.encode({ id: req.id, response: details, isDisposed: true }));
    },
  });
  await s.nc.flush();
  for (const [c, t] of [[SIMPLE, M], [GST, G], [COMPOSITION, C], [DOWN, D], [BIG, B]] as const) cat[c] = await makeCategory(s.url, t, 'General');
});
afterAll(() => s?.stop());

const get = (path: string, t: string) => request(s.url).get(path).set(auth(t));
const post = (path: string, body: unknown, t: string) => request(s.url).post(path).set(auth(t)).send(body as object);
const base = (company: number) => ({ catagory: cat[company], brand_name: 'Acme', name: 'Widget', mrp: '118', cp: '90', unit: 'pcs' });
const details = async (id: number, t: string) => (await get(`/getProductDetails?id=${id}`, t).expect(200)).body.product;
const count = async (t: string) => (await get('/getProductList', t).expect(200)).body.count as number;
const NOT_A_RATE = '13 % is not a GST rate (allowed: 0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 18, 28, 40).';

describe('price_includes_tax', () => {
  it('defaults to true on create and shows on details, list rows, the grid and the NATS snapshots', async () => {
    const id = await makeProduct(s.url, M, { catagory: cat[SIMPLE], name: 'Default incl', tax: '18', hsn_code: '8471' });
    expect(await details(id, M)).toMatchObject({ price_includes_tax: true, tax: '1.18', tax_percent: '18', hsn_code: '8471' });
    const row = (await get('/getProductList', M).expect(200)).body.list.find((r: { product_id: number }) => r.product_id === id);
    expect(row).toMatchObject({ price_includes_tax: true, tax_percent: '18', hsn_code: '8471' });
    const grid = (await get('/productPage/null', M).expect(200)).body.product_list.find((r: { product_id: number }) => r.product_id === id);
    expect(grid).toMatchObject({ price_includes_tax: true, tax_percent: '18', hsn_code: '8471' });
    const look = await s.ask(Subjects.inventory.productLookup, { companyId: SIMPLE, code: String(id) });
    expect(look).toMatchObject({ product_id: id, tax: '1.18', tax_percent: '18', hsn_code: '8471', price_includes_tax: true });
    const many = await s.ask(Subjects.inventory.productMany, { companyId: SIMPLE, productIds: [id] });
    expect(many).toEqual([expect.objectContaining({ product_id: id, tax_percent: '18', hsn_code: '8471', price_includes_tax: true })]);
  });

  it('is stored as given on create and editable (booleans, "true"/"false", 1/0)', async () => {
    const id = await makeProduct(s.url, M, { catagory: cat[SIMPLE], name: 'Excl', tax: '12', price_includes_tax: false });
    expect((await details(id, M)).price_includes_tax).toBe(false);
    const many = await s.ask(Subjects.inventory.productMany, { companyId: SIMPLE, productIds: [id] });
    expect(many[0]).toMatchObject({ price_includes_tax: false, tax_percent: '12' });
    const edit = (extra: Record<string, unknown>) => post('/editProduct', { product_id: id, ...base(SIMPLE), name: 'Excl', tax: '12', ...extra }, M);
    await edit({ price_includes_tax: 'true' }).expect(200);
    expect((await details(id, M)).price_includes_tax).toBe(true);
    await edit({ price_includes_tax: 0 }).expect(200);
    expect((await details(id, M)).price_includes_tax).toBe(false);
    // Not sent: kept as it is (a client from before the field does not reset it).
    await edit({}).expect(200);
    expect((await details(id, M)).price_includes_tax).toBe(false);
  });

  it('reads as true for a product stored before the field existed', async () => {
    const id = await makeProduct(s.url, M, { catagory: cat[SIMPLE], name: 'Old one', tax: '5' });
    // Straight to the collection, as an old document looks: no price_includes_tax at all.
    const coll = s.svc.app.get<Model<Product>>(getModelToken(Product.name)).collection;
    const r = await coll.updateOne({ companyId: SIMPLE, product_id: id }, { $unset: { price_includes_tax: '' } });
    expect(r.modifiedCount).toBe(1);
    expect(await coll.findOne({ companyId: SIMPLE, product_id: id })).not.toHaveProperty('price_includes_tax');
    expect((await details(id, M)).price_includes_tax).toBe(true);
    expect(await s.ask(Subjects.inventory.productLookup, { companyId: SIMPLE, code: String(id) })).toMatchObject({ price_includes_tax: true, tax_percent: '5' });
  });

  it('refuses a value that is not a yes/no with a 400 and stores nothing', async () => {
    const before = await count(M);
    const r = await post('/createNewProduct', { ...base(SIMPLE), price_includes_tax: 'maybe' }, M);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('price_includes_tax must be true or false.');
    expect(await count(M)).toBe(before);
  });
});

describe('GST rate in GST mode', () => {
  it('refuses 13 % on create with a 400 naming the allowed rates, and stores nothing', async () => {
    const before = await count(G);
    const r = await post('/createNewProduct', { ...base(GST), tax: '13', hsn_code: '8471' }, G);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(NOT_A_RATE);
    expect(await count(G)).toBe(before);
  });

  it('accepts 18, 0.25, 0 and 40', async () => {
    for (const tax of ['18', '0.25', '0', '40']) {
      const id = await makeProduct(s.url, G, { catagory: cat[GST], name: `Rate ${tax}`, tax, hsn_code: '7113' });
      expect(await details(id, G)).toMatchObject({ tax_percent: tax });
    }
  });

  it('refuses 13 % on edit, leaving the product as it was', async () => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Edit me', tax: '18', hsn_code: '8471' });
    const r = await post('/editProduct', { product_id: id, ...base(GST), name: 'Edited', tax: '13', hsn_code: '8471' }, G);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(NOT_A_RATE);
    expect(await details(id, G)).toMatchObject({ product_name: 'Edit me', tax_percent: '18' });
    await post('/editProduct', { product_id: id, ...base(GST), name: 'Edited', tax: '28', hsn_code: '8471', price_includes_tax: false }, G).expect(200);
    expect(await details(id, G)).toMatchObject({ product_name: 'Edited', tax_percent: '28', hsn_code: '8471', price_includes_tax: false });
  });

  it('a composition dealer keeps free rates (it collects no tax) but needs a 4, 6 or 8 digit HSN', async () => {
    const id = await makeProduct(s.url, C, { catagory: cat[COMPOSITION], name: 'Comp', tax: '13', hsn_code: '847130' });
    expect(await details(id, C)).toMatchObject({ tax_percent: '13', hsn_code: '847130' });
    const r = await post('/createNewProduct', { ...base(COMPOSITION), hsn_code: '84713' }, C);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("HSN code '84713' must be 4, 6 or 8 digits.");
  });

  it('a simple-mode company keeps today\'s rules: 13 % and any HSN text are fine, above 100 % is not', async () => {
    const id = await makeProduct(s.url, M, { catagory: cat[SIMPLE], name: 'Thirteen', tax: '13', hsn_code: 'AB-12' });
    expect(await details(id, M)).toMatchObject({ tax_percent: '13', hsn_code: 'AB-12' });
    const r = await post('/createNewProduct', { ...base(SIMPLE), tax: '120' }, M);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('tax must be a percent between 0 and 100.');
  });

  it('does not ask identity when nothing GST mode would refuse is sent', async () => {
    asked.length = 0;
    await makeProduct(s.url, G, { catagory: cat[GST], name: 'No question', tax: '18', hsn_code: '84713000' });
    await makeProduct(s.url, D, { catagory: cat[DOWN], name: 'Identity down, fine rate', tax: '5' });
    expect(asked).toEqual([]);
  });

  it('when identity cannot answer, a 4-digit HSN of a real heading is still saved (only the turnover could refuse it), one of no heading is not', async () => {
    const id = await makeProduct(s.url, D, { catagory: cat[DOWN], name: 'Identity down, 4 digits', tax: '18', hsn_code: '4820' });
    expect((await details(id, D)).hsn_code).toBe('4820');
    const r = await post('/createNewProduct', { ...base(DOWN), tax: '18', hsn_code: '7700' }, D);
    expect(r.status).toBe(503);
  });

  it('when identity cannot say the mode, a rate GST mode would refuse is not stored (identity\'s status)', async () => {
    const before = await count(D);
    const r = await post('/createNewProduct', { ...base(DOWN), tax: '13' }, D);
    expect(r.status).toBe(503);
    expect(await count(D)).toBe(before);
  });
});

describe('HSN code', () => {
  it.each(['4412', '441210', '44121000'])('GST mode accepts %s', async (hsn) => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: `HSN ${hsn}`, tax: '18', hsn_code: hsn });
    expect((await details(id, G)).hsn_code).toBe(hsn);
  });

  it.each(['44121', '4412100', 'ABCD', '441210001'])('GST mode refuses %s on create and edit', async (hsn) => {
    const before = await count(G);
    const r = await post('/createNewProduct', { ...base(GST), tax: '18', hsn_code: hsn }, G);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(hsn.length > 12 ? 'HSN code can be at most 12 characters.' : `HSN code '${hsn}' must be 4, 6 or 8 digits.`);
    expect(await count(G)).toBe(before);
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'HSN edit', tax: '18', hsn_code: '4412' });
    const e = await post('/editProduct', { product_id: id, ...base(GST), tax: '18', hsn_code: hsn }, G);
    expect(e.status).toBe(400);
    expect((await details(id, G)).hsn_code).toBe('4412');
  });

  it('an empty HSN stays allowed in GST mode (a sale of it is refused later, naming the product)', async () => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'No HSN yet', tax: '18', hsn_code: '' });
    expect((await details(id, G)).hsn_code).toBe('');
  });
});

describe('HSN codes against the HSN list and the turnover (Notification 78/2020-CT)', () => {
  it.each<[string, string]>([
    ['7700', "HSN code '7700' is not in the HSN list: there is no chapter 77."],
    ['4824', "HSN code '4824' is not in the HSN list: chapter 48 has no heading 4824."],
    ['01079000', "HSN code '01079000' is not in the HSN list: chapter 01 has no heading 0107."],
  ])('GST mode refuses %s on create and edit with a sentence, and stores nothing', async (hsn, message) => {
    const before = await count(G);
    const r = await post('/createNewProduct', { ...base(GST), tax: '18', hsn_code: hsn }, G);
    expect([r.status, r.body.message]).toEqual([400, message]);
    expect(await count(G)).toBe(before);
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Heading edit', tax: '18', hsn_code: '4820' });
    const e = await post('/editProduct', { product_id: id, ...base(GST), tax: '18', hsn_code: hsn }, G);
    expect([e.status, e.body.message]).toEqual([400, message]);
    expect((await details(id, G)).hsn_code).toBe('4820');
  });

  it('a composition dealer is held to the list too; a simple-mode company is not (today\'s rules)', async () => {
    const r = await post('/createNewProduct', { ...base(COMPOSITION), hsn_code: '7700' }, C);
    expect([r.status, r.body.message]).toEqual([400, "HSN code '7700' is not in the HSN list: there is no chapter 77."]);
    const id = await makeProduct(s.url, M, { catagory: cat[SIMPLE], name: 'Simple any HSN', tax: '18', hsn_code: '7700' });
    expect((await details(id, M)).hsn_code).toBe('7700');
  });

  it('above Rs 5 crore a 4-digit code is refused and 6 or 8 digits are taken; up to Rs 5 crore 4 digits do', async () => {
    const r = await post('/createNewProduct', { ...base(BIG), tax: '18', hsn_code: '7323' }, B);
    expect([r.status, r.body.message]).toEqual([400, "HSN code '7323' needs at least 6 digits: the company's turnover is above Rs 5 crore (Notification 78/2020-Central Tax)."]);
    for (const hsn of ['732393', '73239390']) {
      const id = await makeProduct(s.url, B, { catagory: cat[BIG], name: `Big ${hsn}`, tax: '18', hsn_code: hsn });
      expect((await details(id, B)).hsn_code).toBe(hsn);
    }
    const small = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Small 4 digits', tax: '18', hsn_code: '7323' });
    expect((await details(small, G)).hsn_code).toBe('7323');
  });
});

describe('supply_type (GSTR-1 Table 8)', () => {
  it('is taxable by default and shows on details and the NATS snapshots', async () => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Plain taxable', tax: '18', hsn_code: '4820' });
    expect(await details(id, G)).toMatchObject({ supply_type: 'taxable' });
    expect(await s.ask(Subjects.inventory.productLookup, { companyId: GST, code: String(id) })).toMatchObject({ supply_type: 'taxable' });
  });

  it.each(['nil', 'exempt', 'non_gst'])('%s at rate 0 is stored and reaches the sale through the snapshot', async (type) => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: `Supply ${type}`, tax: '0', hsn_code: '0702', supply_type: type });
    expect(await details(id, G)).toMatchObject({ supply_type: type, tax_percent: '0' });
    const many = await s.ask(Subjects.inventory.productMany, { companyId: GST, productIds: [id] });
    expect(many[0]).toMatchObject({ supply_type: type });
  });

  it('refuses an exempt product with a rate on create and on edit (400, nothing changes); an unknown type with a sentence', async () => {
    const before = await count(G);
    const r = await post('/createNewProduct', { ...base(GST), tax: '5', hsn_code: '0702', supply_type: 'exempt' }, G);
    expect([r.status, r.body.message]).toEqual([400, 'An exempt product is sold at 0 % GST: set its rate to 0 or its supply type to taxable.']);
    const u = await post('/createNewProduct', { ...base(GST), tax: '0', hsn_code: '0702', supply_type: 'zero' }, G);
    expect([u.status, u.body.message]).toEqual([400, "supply_type must be one of taxable, nil, exempt, non_gst, not 'zero'."]);
    expect(await count(G)).toBe(before);
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Vegetables', tax: '0', hsn_code: '0702', supply_type: 'exempt' });
    // A rate without the supply type: the stored exempt one is checked.
    const e = await post('/editProduct', { product_id: id, ...base(GST), name: 'Vegetables', tax: '5', hsn_code: '0702' }, G);
    expect([e.status, e.body.message]).toEqual([400, 'An exempt product is sold at 0 % GST: set its rate to 0 or its supply type to taxable.']);
    expect(await details(id, G)).toMatchObject({ supply_type: 'exempt', tax_percent: '0' });
    // Both together: taxable at 5 %.
    await post('/editProduct', { product_id: id, ...base(GST), name: 'Vegetables', tax: '5', hsn_code: '0702', supply_type: 'taxable' }, G).expect(200);
    expect(await details(id, G)).toMatchObject({ supply_type: 'taxable', tax_percent: '5' });
  });
});

describe('positions', () => {
  it('staff get 403 on create and edit in GST mode too, and nothing changes', async () => {
    const id = await makeProduct(s.url, G, { catagory: cat[GST], name: 'Guarded', tax: '18', hsn_code: '4412' });
    const before = await count(G);
    const c = await post('/createNewProduct', { ...base(GST), tax: '18', hsn_code: '4412', price_includes_tax: false }, GSTAFF);
    expect(c.status).toBe(403);
    const e = await post('/editProduct', { product_id: id, ...base(GST), tax: '5', hsn_code: '4413', price_includes_tax: false }, GSTAFF);
    expect(e.status).toBe(403);
    expect(await count(G)).toBe(before);
    expect(await details(id, G)).toMatchObject({ tax_percent: '18', hsn_code: '4412', price_includes_tax: true });
  });
});
