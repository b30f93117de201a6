import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { as, customerForm, distributorForm, startLedger, tokenFor, type Stack } from './helpers';

// Right-to-left overrides (U+202A-202E) and isolates (U+2066-2069) in a name reverse the rest of a
// printed bill line and of the WhatsApp message: the ledger saves customers, distributors and
// officers without them, from the forms (HTTP) and from an imported CSV, and hands them out clean.
const RLO = '\u202E';
const PDF = '\u202C';
const LRI = '\u2066';
const PDI = '\u2069';
const ANY = /[\u202A-\u202E\u2066-\u2069]/;

let s: Stack;
let A: ReturnType<typeof as>;
const M = tokenFor(1, 'manager');

beforeAll(async () => {
  s = await startLedger();
  A = as(s.url, M);
}, 60_000);
afterAll(() => s?.stop());

async function finish(kind: string, id: string) {
  for (let i = 0; i < 200; i++) {
    const r = await A.get(`/imports/${kind}/${id}`);
    if (r.body.state !== 'running') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error('import did not finish');
}

describe('ledger: names and addresses are saved without bidi controls', () => {
  it('a customer from the form, as stored and as other services get it over NATS; Devanagari kept', async () => {
    const res = await A.post('/clients/addClient', customerForm({ name: `Ramesh ${RLO}gnp.exe${PDF} रमेश`, address_line_1: `${LRI}12 MG Road${PDI}`, address_line_2: `Near ${RLO}Station`, city_or_district: `${RLO}Pune` }));
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ name: 'Ramesh gnp.exe रमेश', address_line_1: '12 MG Road', address_line_2: 'Near Station', city_or_district: 'Pune' });
    const id = res.body.id as number;
    const looked = await s.ask(Subjects.ledger.customerLookup, { companyId: 1, clientId: id });
    expect(JSON.stringify(looked)).toContain('Ramesh gnp.exe रमेश');
    expect(JSON.stringify(looked)).not.toMatch(ANY);
    // A name of nothing but controls is no name: refused, nothing stored.
    const empty = await A.post('/clients/addClient', customerForm({ name: `${RLO}${PDF}`, mobile_no: '9876500077' }));
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('name is required.');
  });

  it('a distributor and its officers, added and edited', async () => {
    const res = await A.post('/addDistributor', distributorForm({ name: `${RLO}Eastern${PDF} Traders`, address_line_1: `5 ${LRI}Burrabazar${PDI}`, officers: [{ name: `Subir ${RLO}Das`, mobile: '9830011122' }] }));
    expect(res.status).toBe(200);
    expect(res.body.distributor).toMatchObject({ name: 'Eastern Traders', address_line_1: '5 Burrabazar' });
    expect(res.body.distributor.officers.map((o: { name: string }) => o.name)).toEqual(['Subir Das']);
    const edit = await A.put('/addDistributor', distributorForm({ id: res.body.id, name: `Eastern ${LRI}Traders Pvt${PDI}`, officers: [{ name: `${RLO}Vikas` }] }));
    expect(edit.status).toBe(200);
    expect(JSON.stringify(edit.body)).not.toMatch(ANY);
    expect(edit.body.distributor).toMatchObject({ name: 'Eastern Traders Pvt' });
  });

  it('customers imported from a CSV are cleaned as the form cleans them', async () => {
    const csv = ['Customer Name,Mobile No,Address,City,State,Pincode', `"${RLO}Meena${PDF} मीना",9876500031,"${LRI}7 Ring Road${PDI}",Nagpur,Maharashtra,440001`].join('\n');
    const up = await request(s.url).post('/imports/customers').set({ Authorization: `Bearer ${M}` }).attach('file', Buffer.from(csv), 'customers.csv');
    expect(up.status).toBe(200);
    const run = await A.post(`/imports/customers/${up.body.id}/run`, { mapping: up.body.mapping, mode: 'valid' });
    expect(run.status).toBe(202);
    const done = await finish('customers', up.body.id);
    expect(done.state).toBe('done');
    const list = await A.get('/getAllClientsList');
    const row = list.body.allClientsList.find((c: { name: string }) => c.name === 'Meena मीना');
    expect(row).toBeDefined();
    const meena = JSON.stringify(await s.ask(Subjects.ledger.customerLookup, { companyId: 1, clientId: row.id }));
    expect(meena).toContain('7 Ring Road');
    expect(meena).not.toMatch(ANY);
  });
});
