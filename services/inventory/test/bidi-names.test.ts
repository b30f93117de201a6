import request from 'supertest';
import { JSONCodec } from 'nats';
import { Subjects } from '@bahi/contracts';
import { auth, makeCategory, startInventory, token, type Stack } from './helpers';

// Right-to-left overrides (U+202A-202E) and isolates (U+2066-2069) in a product, brand or category
// name reverse the rest of a printed bill line: inventory saves them without, from the forms (HTTP)
// and from an imported sheet, and sales gets the clean name over NATS.
const RLO = '\u202E';
const PDF = '\u202C';
const RLI = '\u2067';
const PDI = '\u2069';
const ANY = /[\u202A-\u202E\u2066-\u2069]/;

let s: Stack;
const A = token(51, 'manager');

beforeAll(async () => {
  s = await startInventory();
  const jc = JSONCodec();
  s.nc.subscribe(Subjects.identity.companyDetails, {
    callback: (_e, msg) => {
      const req = jc.decode(msg.data) as { id: string; data: { companyId: number } };
      msg.respond(jc.encode({ id: req.id, response: { id: req.data.companyId, name: 'C', tax_mode: 'simple' }, isDisposed: true }));
    },
  });
  await s.nc.flush();
}, 60_000);
afterAll(() => s?.stop());

const get = (path: string) => request(s.url).get(path).set(auth(A));
const post = (path: string, body: unknown) => request(s.url).post(path).set(auth(A)).send(body as object);

describe('inventory: names are saved without bidi controls', () => {
  it('a category, a product and its brand from the forms; sales gets the clean name over NATS; Devanagari kept', async () => {
    const cat = await makeCategory(s.url, A, `${RLO}Grocery${PDF} किराना`);
    const made = await post('/createNewProduct', { catagory: cat, brand_name: `${RLI}Tata${PDI}`, name: `Salt ${RLO}gk1${PDF} नमक`, mrp: '28', cp: '24', unit: 'kg', per_peice_quantity: 1 });
    expect(made.status).toBe(200);
    const d = await get(`/getProductDetails?id=${made.body.id}`);
    expect(d.body.product).toMatchObject({ product_name: 'Salt gk1 नमक', brand_name: 'Tata', category: { id: cat, name: 'Grocery किराना' } });
    expect(d.body.brands).toContain('Tata');
    expect(JSON.stringify(d.body)).not.toMatch(ANY);
    const looked = await s.ask(Subjects.inventory.productLookup, { companyId: 51, code: String(made.body.id) });
    expect(looked).toMatchObject({ product_name: 'Salt gk1 नमक', brand_name: 'Tata' });
  });

  it('products imported from a CSV are cleaned as the form cleans them', async () => {
    const csv = `Name,Brand,Category,MRP,Cost,Unit\n"${RLO}Sugar${PDF} चीनी",${RLI}Madhur${PDI},${RLO}Sweets,45,40,kg\n`;
    const up = await request(s.url).post('/imports/products').set(auth(A)).attach('file', Buffer.from(csv), 'items.csv');
    expect(up.status).toBe(200);
    const run = await post(`/imports/products/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'valid' });
    expect(run.status).toBe(202);
    let done: any;
    for (let i = 0; i < 200 && (!done || done.state === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      done = (await get(`/imports/products/${up.body.id}`)).body;
    }
    expect(done.state).toBe('done');
    const suggest = await s.ask(Subjects.inventory.productSuggest, { companyId: 51, text: 'Sugar' });
    const text = JSON.stringify(suggest);
    expect(text).toContain('Sugar चीनी');
    expect(text).not.toMatch(ANY);
    const cats = await get('/getCategoryList');
    expect(JSON.stringify(cats.body)).toContain('Sweets');
    expect(JSON.stringify(cats.body)).not.toMatch(ANY);
  });
});
