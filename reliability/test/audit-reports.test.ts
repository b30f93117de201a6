// The reports auditor is shown a read model that agrees with the owners' data, then one that lost
// an event and one that counted an event twice: it must stay silent, then name each difference.
import { startMongo, type MongoHandle } from '@bahi/devstack';
import { MongoClient } from 'mongodb';
import { auditReports } from '../src/audit-reports';

let mongo: MongoHandle;
let client: MongoClient;
let n = 0;

beforeAll(async () => {
  mongo = await startMongo();
  client = await MongoClient.connect(mongo.uri);
});
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
});

/** Owner data: a 190.00 bill (50.00 paid) with a 30.00 credit note, a 1000.00 purchase, the ledger entries, two products. */
async function owners(p: string) {
  await client.db(`${p}_sales`).collection('sales').insertMany([{ companyId: 1, saleId: 1, status: 'complete', amount: '190.00', paid: '50.00' }, { companyId: 1, saleId: 2, status: 'failed', amount: '80.00', paid: '0' }]);
  await client.db(`${p}_sales`).collection('credit_notes').insertOne({ companyId: 1, creditNoteId: 1, saleId: 1, status: 'complete', amount: '30.00', refund: '0' });
  await client.db(`${p}_inventory`).collection('purchases').insertOne({ companyId: 1, purchaseId: 1, status: 'complete', total: '1000.00', paid: '400.00' });
  await client.db(`${p}_inventory`).collection('products').insertMany([{ companyId: 1, product_id: 1, stock_m: 18000 }, { companyId: 1, product_id: 2, stock_m: 7500 }]);
  await client.db(`${p}_ledger`).collection('entries').insertMany([
    { companyId: 1, seq: 1, partyKind: 'customer', partyId: 3, delta: '140.00' },
    { companyId: 1, seq: 2, partyKind: 'customer', partyId: 3, delta: '-30.00' },
    { companyId: 1, seq: 3, partyKind: 'distributor', partyId: 7, delta: '600.00' },
  ]);
}

/** The read model as the projections leave it for those facts (paise). */
async function reports(p: string, over: { invoices?: object[]; parties?: object[] } = {}) {
  const db = client.db(`${p}_reports`);
  await db.collection('invoices').insertMany((over.invoices ?? [{ _id: '1:1', companyId: 1, saleId: 1, sold: true, amount: 19000, paid: 5000, returned: 3000 }]) as never[]);
  await db.collection('purchases').insertOne({ _id: '1:1', companyId: 1, purchaseId: 1, bought: true, amount: 100000, paid: 40000 } as never);
  await db.collection('parties').insertMany((over.parties ?? [{ _id: '1:r:3', companyId: 1, side: 'r', partyId: 3, balance: 11000 }, { _id: '1:p:7', companyId: 1, side: 'p', partyId: 7, balance: 60000 }]) as never[]);
  await db.collection('products').insertMany([{ _id: '1:1', companyId: 1, productId: 1, stock: 18 }, { _id: '1:2', companyId: 1, productId: 2, stock: 7.5 }] as never[]);
}

async function run(over?: Parameters<typeof reports>[1]) {
  const p = `ra${++n}`;
  await owners(p);
  await reports(p, over);
  return auditReports(mongo.uri, { db: { sales: `${p}_sales`, inventory: `${p}_inventory`, ledger: `${p}_ledger`, reports: `${p}_reports` } });
}

it('finds nothing when the reports agree with the owners', async () => {
  const r = await run();
  expect(r.mismatches).toEqual([]);
  expect(r.compared).toBeGreaterThan(8);
});

it('names a lost credit note and a payment counted twice', async () => {
  const r = await run({
    invoices: [{ _id: '1:1', companyId: 1, saleId: 1, sold: true, amount: 19000, paid: 5000, returned: 0 }],
    // 140 - 30 = 110.00 owed; the reports say 80.00 (a -30.00 counted twice).
    parties: [{ _id: '1:r:3', companyId: 1, side: 'r', partyId: 3, balance: 8000 }, { _id: '1:p:7', companyId: 1, side: 'p', partyId: 7, balance: 60000 }],
  });
  expect(r.mismatches.sort()).toEqual([
    'company 1: credit notes is 30.00 in the owner\'s data but 0.00 in the reports',
    'company 1: customer 3 owes 110.00 in the ledger but 80.00 in the reports',
  ]);
});
