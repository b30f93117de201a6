// Sales returns (credit notes) and cancelled bills in simple mode, against the real inventory and
// ledger over a real nats-server and embedded MongoDB. Every figure is worked out by hand beside it.
import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import request from 'supertest';
import { Subjects } from '@bahi/contracts';
import { Decimal, financialYearOf, today } from '@bahi/service-kit';
import { Models, type SaleDoc } from '../src/common/schemas';
import { ReturnsService } from '../src/returns/returns.service';
import { ReturnModels, type CreditNoteDoc, type ReturnableSale } from '../src/returns/schema';
import { noteValue } from '../src/returns/value';
import { as, auth, category, customer, product, startSales, tokenFor, type Stack } from './helpers';

let s: Stack;
let mgr: string;
let M: ReturnType<typeof as>;
let S: ReturnType<typeof as>;
let soap: number;
let rice: number;
let asha: number;
let sales: Model<SaleDoc>;
let notes: Model<CreditNoteDoc>;
const FY = financialYearOf(today());
const cn = (n: number) => `CN/${FY}/${String(n).padStart(4, '0')}`;

const stock = async (id: number) => Number((await s.ask<any>(Subjects.inventory.productLookup, { companyId: s.companyId, code: String(id) })).stock);
const due = async (id: number) => Number((await s.ask<any>(Subjects.ledger.partyDue, { companyId: s.companyId, party: { kind: 'customer', id } })).due);
const saleOf = async (saleId: number) => (await sales.collection.findOne({ companyId: s.companyId, saleId })) as unknown as ReturnableSale;

/** Fills the manager's cart 1 and sells it; lines [product, packs, line discount]. */
async function sell(items: [number, string, string?][], summary: { tax?: 0 | 1; shipping?: string; discount?: string }, clientId = asha, paid = '0'): Promise<{ saleId: number; lines: number[] }> {
  await M.del('/clearCart/1').expect(200);
  const lines: number[] = [];
  for (const [id, qty, disc] of items) {
    const line = (await M.get(`/addProductIntoCart/${encodeURIComponent(`${qty}*${id}`)}?cart_no=1`).expect(200)).body[0][0];
    lines.push(line.sl_no);
    if (disc) await M.post('/upDisc', { sl_no: line.sl_no, discount: disc, cart_no: 1 }).expect(200);
  }
  await M.post('/upTax', { cart_no: 1, tax: summary.tax ?? 0 }).expect(200);
  await M.post('/upShip', { cart_no: 1, shipping: summary.shipping ?? '0' }).expect(200);
  await M.post('/upSummeryDisc', { cart_no: 1, discount: summary.discount ?? '0' }).expect(200);
  const r = await M.post('/MAKE_SALE', { clientId, cart_no: 1, paid }).expect(200);
  return { saleId: r.body.saleId, lines };
}

beforeAll(async () => {
  s = await startSales();
  mgr = tokenFor(s.companyId, 'manager');
  M = as(s.url, mgr);
  S = as(s.url, tokenFor(s.companyId, 'staff'));
  sales = s.sales.app.get<Model<SaleDoc>>(getModelToken(Models.Sale));
  notes = s.sales.app.get<Model<CreditNoteDoc>>(getModelToken(ReturnModels.CreditNote));
  const cat = await category(s.inventory.url, mgr, 'Grocery');
  soap = await product(s.inventory.url, mgr, cat, { name: 'Neem Soap', mrp: '50', stock: '100' });
  rice = await product(s.inventory.url, mgr, cat, { name: 'Basmati 1kg', mrp: '120', stock: '100' });
  asha = await customer(s.ledger.url, mgr, 'Asha Verma', '9876500001');
}, 120_000);
afterAll(() => s?.stop());

describe('a bill with line discounts, the 18 % tax, shipping and a summary discount, returned in three notes', () => {
  // Soap 5 x (50 - 2) = 240.00; rice 3 x 120 = 360.00; subtotal 600.00.
  // Tax 18 % of 600 = 108.00; shipping 30.00; summary discount 45.01.
  // Amount = 600 + 108 + 30 - 45.01 = 692.99.
  // Per line (apportioned over 240 : 360, leftover paise to the larger line):
  //   discount: soap 45.01 x 0.4 = 18.004 -> 18.00, rice 27.006 -> 27.01 (18.00 + 27.01 = 45.01)
  //   tax:      soap 108 x 0.4 = 43.20, rice 64.80
  //   value:    soap 240 - 18.00 + 43.20 = 265.20, rice 360 - 27.01 + 64.80 = 397.79
  let bill: { saleId: number; lines: number[] };
  let soapLine: number;
  let riceLine: number;

  beforeAll(async () => {
    bill = await sell([[soap, '5', '2'], [rice, '3']], { tax: 1, shipping: '30', discount: '45.01' });
    [soapLine, riceLine] = bill.lines as [number, number];
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.saleDetails.amount).toBe(692.99);
    expect(b.status).toBe('');
    expect(b.cancellable).toEqual({ ok: true, reason: null });
  });

  it('refuses bad returns with a sentence naming the line, changing nothing', async () => {
    const soapBefore = await stock(soap);
    const r = (body: object) => M.post('/salesReturn', { saleId: bill.saleId, refund: '0', idempotencyKey: `bad-${Math.random().toString(36).slice(2)}`, ...body });
    expect((await r({ lines: [] }).expect(400)).body.message).toBe('Choose at least one line to return.');
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 6 }] }).expect(400)).body.message).toBe(`Line ${soapLine} (Neem Soap): only 5 of 5 can be returned (0 already returned); asked for 6.`);
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 0 }] }).expect(400)).body.message).toMatch(new RegExp(`^Line ${soapLine} \\(Neem Soap\\): the quantity to return must be more than 0`));
    expect((await r({ lines: [{ sl_no: soapLine, quantity: -1 }] }).expect(400)).body.message).toMatch(/more than 0/);
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 1 }, { sl_no: soapLine, quantity: 1 }] }).expect(400)).body.message).toBe(`Line ${soapLine} is listed twice; give each line once.`);
    expect((await r({ lines: [{ sl_no: 99999, quantity: 1 }] }).expect(400)).body.message).toBe(`Line 99999 is not on bill ${bill.saleId}.`);
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 'two' }] }).expect(400)).body.message).toBe(`Line ${soapLine}: quantity must be a number.`);
    // 1 soap is worth 265.20 / 5 = 53.04: a refund of 53.05 is more than the note.
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 1 }], refund: '53.05' }).expect(400)).body.message).toBe("refund (53.05) is more than the credit note's value (53.04).");
    expect((await r({ lines: [{ sl_no: soapLine, quantity: 1 }], refund: '-1' }).expect(400)).body.message).toMatch(/refund must be a number not below 0/);
    expect((await M.post('/salesReturn', { saleId: 987654, lines: [{ sl_no: 1, quantity: 1 }], refund: '0' }).expect(404)).body.message).toBe('Sale 987654 not found.');
    // Malformed bodies: a 4xx with a sentence, never a 5xx.
    const odd: object[] = [
      { lines: [null] }, { lines: [1] }, { lines: ['x'] }, { lines: 'x' }, { lines: { sl_no: 1 } }, { lines: [{ sl_no: { $gt: '' }, quantity: 1 }] },
      { lines: [{ sl_no: soapLine, quantity: { $ne: null } }] }, { lines: [{ sl_no: 1e308, quantity: '1e999' }] }, { lines: [{ sl_no: soapLine, quantity: 'Infinity' }] },
      { lines: [{ sl_no: soapLine, quantity: '9'.repeat(40) }] }, { lines: [{ sl_no: soapLine, quantity: 1 }], refund: 'NaN' }, { lines: [{ sl_no: soapLine, quantity: 1 }], reason: 12 },
      { lines: [{ sl_no: soapLine, quantity: 1 }], idempotencyKey: { $ne: null } }, { saleId: 'abc', lines: [{ sl_no: soapLine, quantity: 1 }] },
    ];
    for (const body of odd) {
      const res = await r(body);
      expect([res.status, typeof res.body.message]).toEqual([400, 'string']);
    }
    // Staff see notes but may not make them.
    await S.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 1 }], refund: '0' }).expect(403);
    expect(await stock(soap)).toBe(soapBefore);
    expect(await notes.countDocuments({ companyId: s.companyId })).toBe(0);
    expect((await saleOf(bill.saleId)).busy ?? null).toBeNull();
  });

  it('a partial return credits the line share to the paisa, brings the packs back, lowers the due and pays the refund', async () => {
    const [soapBefore, dueBefore] = [await stock(soap), await due(asha)];
    // 2 of 5 soaps: value = 265.20 x 2/5 = 106.08; amount 240 x 0.4 = 96.00; discount 18.00 x 0.4 = 7.20;
    // tax = 106.08 - 96.00 + 7.20 = 17.28 (= 43.20 x 0.4).
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 2 }], refund: '50', reason: 'Damaged' }, { 'Idempotency-Key': 'ret-one' }).expect(200);
    expect(r.body).toEqual({ success: true, creditNoteId: expect.any(Number), credit_note_no: cn(1), amount: 106.08, refund: 50, warnings: [] });
    expect(await stock(soap)).toBe(soapBefore + 2);
    // Due down by 106.08, up by the 50 paid out: 106.08 - 50 = 56.08 lower.
    expect(await due(asha)).toBeCloseTo(dueBefore - 56.08, 2);
    const d = (await S.get(`/getCreditNoteDetails?id=${r.body.creditNoteId}`).expect(200)).body;
    expect(d).toMatchObject({ credit_note_no: cn(1), saleId: bill.saleId, reason: 'Damaged', subtotal: 96, discount: 7.2, tax: 17.28, shipping: 0, amount: 106.08, refund: 50, gst: null, walkIn: false });
    expect(d.lines).toEqual([expect.objectContaining({ sl_no: soapLine, product_name: 'Neem Soap', quantity: 2, rate: 50, disc: 2, amount: 96, value: 106.08 })]);
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.status).toBe('Partly returned');
    expect(b.returns).toEqual([
      { sl_no: soapLine, sold: 5, returned: 2, returnable: 3 },
      { sl_no: riceLine, sold: 3, returned: 0, returnable: 3 },
    ]);
    expect(b.creditNotes).toEqual([{ creditNoteId: r.body.creditNoteId, credit_note_no: cn(1), date: today(), amount: 106.08, refund: 50 }]);
    expect(b.cancellable).toEqual({ ok: false, reason: `Bill ${bill.saleId} has credit notes (goods were returned against it); it cannot be cancelled.` });
    // The customer's account shows the note's row with its number (sent once the number was taken).
    const st = await s.ask<{ rows: { ref: number | null; doc_no: string | null; amount: number; paid: number }[] }>(Subjects.documents.customerStatement, { companyId: s.companyId, clientId: asha });
    expect(st.rows.find((row) => row.ref === r.body.creditNoteId && row.doc_no === cn(1))).toMatchObject({ amount: 106.08, paid: 50 });
  });

  it('a retried key applies once, whether sent again later or twice at once', async () => {
    const soapBefore = await stock(soap);
    const again = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 2 }], refund: '50' }, { 'Idempotency-Key': 'ret-one' }).expect(200);
    expect(again.body.credit_note_no).toBe(cn(1));
    const body = { saleId: bill.saleId, lines: [{ sl_no: riceLine, quantity: 1 }], refund: '0' };
    const [x, y] = await Promise.all([M.post('/salesReturn', body, { 'Idempotency-Key': 'ret-two' }), M.post('/salesReturn', body, { 'Idempotency-Key': 'ret-two' })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(x.body.creditNoteId).toBe(y.body.creditNoteId);
    // 1 of 3 rice: 397.79 / 3 = 132.5966.. -> 132.60; amount 120.00; discount 27.01 / 3 = 9.0033 -> 9.00;
    // tax = 132.60 - 120.00 + 9.00 = 21.60 (= 64.80 / 3).
    expect(x.body).toMatchObject({ credit_note_no: cn(2), amount: 132.6, refund: 0 });
    expect(await stock(soap)).toBe(soapBefore);
    expect(await notes.countDocuments({ companyId: s.companyId, status: 'complete' })).toBe(2);
    const d = (await M.get(`/getCreditNoteDetails?id=${x.body.creditNoteId}`).expect(200)).body;
    expect(d).toMatchObject({ subtotal: 120, discount: 9, tax: 21.6, amount: 132.6 });
  });

  it('returning more than what is left is refused; the return completing the bill takes the remainder and the shipping', async () => {
    expect((await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 4 }], refund: '0' }).expect(400)).body.message).toBe(
      `Line ${soapLine} (Neem Soap): only 3 of 5 can be returned (2 already returned); asked for 4.`,
    );
    const dueBefore = await due(asha);
    // Soap completes: 240 - 96 = 144.00, discount 18.00 - 7.20 = 10.80, tax 43.20 - 17.28 = 25.92 -> 159.12.
    // Rice completes: 360 - 120 = 240.00, discount 27.01 - 9.00 = 18.01, tax 64.80 - 21.60 = 43.20 -> 265.19.
    // Shipping 30.00. 159.12 + 265.19 + 30 = 454.31 = 692.99 - 106.08 - 132.60.
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: '3' }, { sl_no: riceLine, quantity: '2' }], refund: '454.31' }).expect(200);
    expect(r.body).toMatchObject({ credit_note_no: cn(3), amount: 454.31, refund: 454.31 });
    const d = (await M.get(`/getCreditNoteDetails?id=${r.body.creditNoteId}`).expect(200)).body;
    expect(d).toMatchObject({ subtotal: 384, discount: 28.81, tax: 69.12, shipping: 30, amount: 454.31 });
    expect(d.lines.map((l: { value: number }) => l.value)).toEqual([159.12, 265.19]);
    // Refunded in full: the due is where it was.
    expect(await due(asha)).toBeCloseTo(dueBefore, 2);
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.status).toBe('Returned');
    expect(b.returns.every((l: { returnable: number }) => l.returnable === 0)).toBe(true);
    // The bill's credits sum exactly to its amount: 106.08 + 132.60 + 454.31 = 692.99.
    expect(b.creditNotes.reduce((t: number, n: { amount: number }) => t + Math.round(n.amount * 100), 0)).toBe(69299);
    const row = (await S.get('/getSaleList').expect(200)).body.salesList.find((x: { id: number }) => x.id === bill.saleId);
    expect(row.status).toBe('Returned');
    const list = (await S.get('/getCreditNoteList?pageNo=0').expect(200)).body;
    expect(list.noOfPages).toBe(1);
    expect(list.list.map((n: { credit_note_no: string }) => n.credit_note_no)).toEqual([cn(3), cn(2), cn(1)]);
    expect(list.list[0]).toMatchObject({ saleId: bill.saleId, invoice_no: null, 'Clients Name': 'Asha Verma', Amount: 454.31, Refund: 454.31 });
    expect((await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: riceLine, quantity: 1 }], refund: '0' }).expect(400)).body.message).toMatch(/only 0 of 3 can be returned/);
  });

  it('the credit note is answered to documents; another company sees neither the note nor the PDF data', async () => {
    const id = (await notes.findOne({ companyId: s.companyId, credit_note_no: cn(1) }).lean())!.creditNoteId;
    const doc = await s.ask<any>(Subjects.documents.creditNoteDocument, { companyId: s.companyId, creditNoteId: id });
    expect(doc).toMatchObject({ credit_note_no: cn(1), amount: 106.08, customer: expect.objectContaining({ name: 'Asha Verma' }) });
    expect(await s.ask(Subjects.documents.creditNoteDocument, { companyId: s.companyId + 1000, creditNoteId: id })).toBeNull();
    const other = as(s.url, tokenFor(s.companyId + 1000, 'manager'));
    expect((await other.get(`/getCreditNoteDetails?id=${id}`).expect(404)).body.message).toBe(`Credit note ${id} not found.`);
    expect((await other.get('/getCreditNoteList').expect(200)).body.list).toEqual([]);
  });
});

describe('without the tax flag; races; all or nothing', () => {
  // Soap 3 x 50 = 150.00, rice 1 x 120 = 120.00; subtotal 270.00; no tax; discount 10.00; amount 260.00.
  // Discount per line over 150 : 120: soap 10 x 150/270 = 5.5555.. -> 5.56, rice 4.4444.. -> 4.44.
  let bill: { saleId: number; lines: number[] };
  let soapLine: number;

  beforeAll(async () => {
    bill = await sell([[soap, '3'], [rice, '1']], { tax: 0, discount: '10' }, 0, '260');
    soapLine = bill.lines[0]!;
  });

  it('a partial return of a walk-in bill: the discount takes the rounding; no tax', async () => {
    // 1 of 3 soaps: (150 - 5.56) / 3 = 48.1466.. -> 48.15; amount 50.00; discount = 50.00 - 48.15 = 1.85.
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 1 }], refund: '48.15' }).expect(200);
    expect(r.body.amount).toBe(48.15);
    const d = (await M.get(`/getCreditNoteDetails?id=${r.body.creditNoteId}`).expect(200)).body;
    expect(d).toMatchObject({ subtotal: 50, discount: 1.85, tax: 0, amount: 48.15, refund: 48.15, walkIn: true, customer: null });
  });

  it('all or nothing: the ledger gone after the stock came in puts it back, and no number is taken', async () => {
    const soapBefore = await stock(soap);
    const count = await notes.countDocuments({ companyId: s.companyId, serial: { $gt: 0 } });
    await s.ledger.close();
    const r = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 1 }], refund: '0' }, { 'Idempotency-Key': 'ret-ledger-down' });
    expect(r.status).toBe(503);
    expect(r.body.message).toBe('The return could not be completed (No service is answering ledger.entry.post.). What was applied will be undone automatically.');
    // The stock came back at once; the ledger's undo waits for it (the note stays compensating and
    // holds the bill, so no other return is computed while its entry is unknown).
    expect(await stock(soap)).toBe(soapBefore);
    expect(await notes.countDocuments({ companyId: s.companyId, serial: { $gt: 0 } })).toBe(count);
    expect(await notes.findOne({ companyId: s.companyId, idempotencyKey: 'ret-ledger-down' }).lean()).toMatchObject({ status: 'compensating', serial: 0, credit_note_no: '' });
    await s.restartLedger();
    // The retry after the ledger is back returns once and takes the next number: no gap.
    const ok = await M.post('/salesReturn', { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 1 }], refund: '0' }, { 'Idempotency-Key': 'ret-ledger-down' }).expect(200);
    expect(ok.body.credit_note_no).toBe(cn(count + 1));
    expect(await notes.findOne({ companyId: s.companyId, failedKey: 'ret-ledger-down' }).lean()).toMatchObject({ status: 'failed', serial: 0, credit_note_no: '' });
    expect(await stock(soap)).toBe(soapBefore + 1);
  });

  it('two returns racing for the last soap: one wins, the other is refused and changes nothing', async () => {
    const soapBefore = await stock(soap);
    const body = { saleId: bill.saleId, lines: [{ sl_no: soapLine, quantity: 1 }], refund: '0' };
    const [x, y] = await Promise.all([M.post('/salesReturn', body, { 'Idempotency-Key': 'race-a' }), M.post('/salesReturn', body, { 'Idempotency-Key': 'race-b' })]);
    const [won, lost] = x.status === 200 ? [x, y] : [y, x];
    expect(won.status).toBe(200);
    // The loser either found the bill reserved (409) or, if it came after, nothing left (400).
    expect([400, 409]).toContain(lost.status);
    expect(lost.body.message).toMatch(/in progress; try again in a moment|had another return meanwhile|only 0 of 3 can be returned/);
    expect(await stock(soap)).toBe(soapBefore + 1);
    const b = (await M.get(`/getBillDetails?id=${bill.saleId}`).expect(200)).body;
    expect(b.returns[0]).toEqual({ sl_no: soapLine, sold: 3, returned: 3, returnable: 0 });
    expect(b.status).toBe('Partly returned');
  });
});

describe('cancelling a bill', () => {
  it('refuses staff, a missing or long reason, and an unknown bill', async () => {
    const { saleId } = await sell([[rice, '1']], {});
    await S.post('/cancelSale', { saleId, reason: 'Wrong customer' }).expect(403);
    expect((await M.post('/cancelSale', { saleId }).expect(400)).body.message).toMatch(/reason is required/);
    expect((await M.post('/cancelSale', { saleId, reason: '   ' }).expect(400)).body.message).toMatch(/reason is required/);
    expect((await M.post('/cancelSale', { saleId, reason: 'x'.repeat(201) }).expect(400)).body.message).toMatch(/at most 200 characters/);
    expect((await M.post('/cancelSale', { saleId: 987654, reason: 'x' }).expect(404)).body.message).toBe('Sale 987654 not found.');
    expect((await saleOf(saleId)).cancelled ?? null).toBeNull();
  });

  it('cancels once on a double click: stock back, due reversed, status Cancelled, the bill keeps its figures', async () => {
    // Rice 2 x 120 = 240.00, paid 40: Asha's due goes up 200 with the sale and back down with the cancel.
    const dueBefore = await due(asha);
    const { saleId } = await sell([[rice, '2']], {}, asha, '40');
    expect(await due(asha)).toBeCloseTo(dueBefore + 200, 2);
    const riceBefore = await stock(rice);
    const [x, y] = await Promise.all([M.post('/cancelSale', { saleId, reason: 'Wrong customer' }), M.post('/cancelSale', { saleId, reason: 'Wrong customer' })]);
    expect([x.status, y.status]).toEqual([200, 200]);
    expect(x.body).toEqual({ success: true, saleId, invoice_no: null });
    expect(await stock(rice)).toBe(riceBefore + 2);
    expect(await due(asha)).toBeCloseTo(dueBefore, 2);
    const b = (await M.get(`/getBillDetails?id=${saleId}`).expect(200)).body;
    expect(b.status).toBe('Cancelled');
    expect(b.cancelled).toEqual({ date: today(), reason: 'Wrong customer' });
    expect(b.cancellable).toEqual({ ok: false, reason: `Bill ${saleId} is already cancelled.` });
    expect(b.saleDetails.amount).toBe(240);
    expect(b.returns).toEqual([{ sl_no: expect.any(Number), sold: 2, returned: 0, returnable: 0 }]);
    const row = (await M.get('/getSaleList').expect(200)).body.salesList.find((r: { id: number }) => r.id === saleId);
    expect(row.status).toBe('Cancelled');
    const doc = await s.ask<any>(Subjects.documents.saleDocument, { companyId: s.companyId, saleId });
    expect(doc.cancelled).toEqual({ date: today(), reason: 'Wrong customer' });
    // Again later: refused, nothing moves.
    expect((await M.post('/cancelSale', { saleId, reason: 'again' }).expect(409)).body.message).toBe(`Bill ${saleId} is already cancelled.`);
    expect((await M.post('/salesReturn', { saleId, lines: [{ sl_no: b.returns[0].sl_no, quantity: 1 }], refund: '0' }).expect(409)).body.message).toBe(`Bill ${saleId} was cancelled; nothing can be returned against it.`);
    expect(await stock(rice)).toBe(riceBefore + 2);
  });

  it('an attempt undone after an outage does not block the next: the retry cancels once', async () => {
    // Rice 1 x 120 = 120.00, nothing paid: Asha's due goes up 120 and, once cancelled, back.
    const dueBefore = await due(asha);
    const { saleId } = await sell([[rice, '1']], {}, asha, '0');
    const riceBefore = await stock(rice);
    // Inventory gone after the ledger took the cancellation: the attempt fails and is undone
    // (its ledger entry reversed once inventory answers again).
    await s.inventory.close();
    const r = await M.post('/cancelSale', { saleId, reason: 'Wrong bill' });
    expect(r.status).toBeGreaterThanOrEqual(500);
    expect((await saleOf(saleId)).cancelled ?? null).toBeNull();
    await s.restartInventory();
    // The retry finishes the undo and cancels afresh, as its own source: stock and due once.
    const ok = await M.post('/cancelSale', { saleId, reason: 'Wrong bill' }).expect(200);
    expect(ok.body).toEqual({ success: true, saleId, invoice_no: null });
    expect(await stock(rice)).toBe(riceBefore + 1);
    expect(await due(asha)).toBeCloseTo(dueBefore, 2);
    expect((await saleOf(saleId)).cancelled).toMatchObject({ reason: 'Wrong bill' });
    const attempts = await sales.db.collection('sale_cancels').find({ companyId: s.companyId, saleId }).toArray();
    expect(attempts.map((a) => a.status).sort()).toEqual(['complete', 'failed']);
    // The account tells what happened: the undone attempt and its reversal, then the cancellation,
    // each row leading to the bill.
    const rows = (await as(s.ledger.url, mgr).get(`/getAllClientsHistory?id=${asha}&pageNo=0`).expect(200)).body.list as { type: string; ref: number }[];
    const failed = attempts.find((a) => a.status === 'failed')!;
    expect(rows.filter((x) => x.type === 'Sale Cancelled' && x.ref === saleId)).toHaveLength(2);
    expect(rows.filter((x) => x.type === `Reversal of sale-cancel ${failed.cancelId}`)).toHaveLength(1);
  });

  it('is refused after the customer paid, and on a bill with a credit note; nothing changes', async () => {
    const { saleId, lines } = await sell([[rice, '1']], {});
    await request(s.ledger.url).post('/salesDuePayment').set(auth(mgr)).send({ client_id: asha, amount: '10', nextDD: '2030-01-01' }).expect(200);
    const [riceBefore, dueBefore] = [await stock(rice), await due(asha)];
    const r = await M.post('/cancelSale', { saleId, reason: 'Changed mind' }).expect(409);
    expect(r.body.message).toMatch(new RegExp(`^The cancellation could not be completed \\(Bill ${saleId} cannot be cancelled: `));
    expect(await stock(rice)).toBe(riceBefore);
    expect(await due(asha)).toBeCloseTo(dueBefore, 2);
    const sale = await saleOf(saleId);
    expect(sale.cancelled ?? null).toBeNull();
    expect(sale.busy ?? null).toBeNull();
    // A return still works on it; then the credit note blocks the cancel.
    await M.post('/salesReturn', { saleId, lines: [{ sl_no: lines[0], quantity: 1 }], refund: '0' }).expect(200);
    expect((await M.post('/cancelSale', { saleId, reason: 'x' }).expect(409)).body.message).toBe(`Bill ${saleId} has credit notes (goods were returned against it); it cannot be cancelled.`);
  });
});

describe('a return racing a payment', () => {
  it('both apply, whichever lands first: the due moves by exactly -credit - payment each round', async () => {
    for (let round = 0; round < 4; round++) {
      // Rice 2 x 120 = 240.00 to Asha; one comes back (120.00, nothing refunded) while she pays 50.
      const { saleId, lines } = await sell([[rice, '2']], {});
      const before = await due(asha);
      const [ret, pay] = await Promise.all([
        M.post('/salesReturn', { saleId, lines: [{ sl_no: lines[0], quantity: 1 }], refund: '0', idempotencyKey: `race-pay-${round}-${saleId}` }),
        request(s.ledger.url).post('/salesDuePayment').set(auth(mgr)).send({ client_id: asha, amount: '50', nextDD: '2030-01-01' }),
      ]);
      expect([ret.status, pay.status]).toEqual([200, 200]);
      expect(ret.body.amount).toBe(120);
      expect(await due(asha)).toBeCloseTo(before - 120 - 50, 2);
    }
  });
});

describe('the re-driver takes over a return a crash left behind', () => {
  /** A pending note as a crashed attempt leaves it: reserved sale, stock back in, lease expired. */
  async function crashed(saleId: number, sl_no: number, key: string) {
    const sale = await saleOf(saleId);
    const v = noteValue(sale, [{ sl_no, quantity: new Decimal(1) }]);
    const creditNoteId = 900000 + Math.floor(Math.random() * 1000);
    await notes.collection.insertOne({
      companyId: s.companyId, creditNoteId, status: 'pending', idempotencyKey: key, lockedUntil: new Date(Date.now() - 1000), saleId, fy: FY, serial: 0, credit_note_no: '',
      date: today(), sale_date: sale.date, reason: '', clientId: sale.customer.client_id, customer: sale.customer, ...v, refund: '0', tax_mode: 'simple', saleVersion: sale.returnsVersion ?? 0,
      stockApplied: false, ledgerPosted: false, warnings: [], createdBy: 1,
    } as never);
    await sales.collection.updateOne({ companyId: s.companyId, saleId } as never, { $set: { busy: { kind: 'return', id: creditNoteId } } } as never);
    await s.ask(Subjects.inventory.stockApply, { companyId: s.companyId, source: { kind: 'sale-return', id: creditNoteId }, lines: [{ product_id: rice, quantity: '1', rate: '120' }] });
    return { creditNoteId, amount: v.amount };
  }

  it('undoes one short of the point of no return: stock out again, the bill freed, no number', async () => {
    const { saleId, lines } = await sell([[rice, '2']], {});
    const before = await stock(rice);
    const { creditNoteId } = await crashed(saleId, lines[0]!, 'crash-early');
    expect(await stock(rice)).toBe(before + 1);
    await s.sales.app.get(ReturnsService).redrive();
    expect(await stock(rice)).toBe(before);
    expect(await notes.findOne({ companyId: s.companyId, creditNoteId }).lean()).toMatchObject({ status: 'failed', serial: 0 });
    expect((await saleOf(saleId)).busy).toBeNull();
    // The bill takes a return again at once.
    await M.post('/salesReturn', { saleId, lines: [{ sl_no: lines[0], quantity: 2 }], refund: '0' }).expect(200);
  });

  it('finishes one past the point of no return: the note completes and the bill counts it', async () => {
    const { saleId, lines } = await sell([[rice, '2']], {});
    const { creditNoteId, amount } = await crashed(saleId, lines[0]!, 'crash-late');
    // Rice 1 of 2 on a bill of 240.00: 120.00.
    expect(amount).toBe('120.00');
    await s.ask(Subjects.ledger.entryPost, { companyId: s.companyId, party: { kind: 'customer', id: asha }, source: { kind: 'credit-note', id: creditNoteId }, amount, paid: '0' });
    const svc = s.sales.app.get(ReturnsService);
    await svc.series.assign(s.companyId, FY, { creditNoteId }, { stockApplied: true, ledgerPosted: true });
    await svc.redrive();
    const n = await notes.findOne({ companyId: s.companyId, creditNoteId }).lean();
    expect(n).toMatchObject({ status: 'complete', ledgerPosted: true });
    expect(n!.serial).toBeGreaterThan(0);
    const b = (await M.get(`/getBillDetails?id=${saleId}`).expect(200)).body;
    expect(b.returns[0]).toEqual({ sl_no: lines[0], sold: 2, returned: 1, returnable: 1 });
    expect(b.creditNotes).toEqual([expect.objectContaining({ creditNoteId, credit_note_no: n!.credit_note_no, amount: 120 })]);
    expect((await saleOf(saleId)).busy).toBeNull();
  });
});
