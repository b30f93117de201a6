import request from 'supertest';
import { nestRequest } from '@bahi/auth';
import { Subjects, TALLY_LEDGERS, type AccountantLedgersNames, type AccountantLedgersReply } from '@bahi/contracts';
import { auth, startTwoCompanies, type TwoCompanies } from './helpers';

describe('identity: Setting > Accountant, the Tally ledger names (GET/PUT /accountant/ledgers, identity.accountant.ledgers)', () => {
  let two: TwoCompanies;
  let url: string;
  const get = async (token = two.mgr) => (await request(url).get('/accountant/ledgers').set(auth(token)).expect(200)).body as AccountantLedgersReply;
  const nameOf = (r: AccountantLedgersReply, key: string) => r.ledgers.find((l) => l.key === key)!.name;

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    url = two.s.url;
  });
  afterAll(() => two?.stop());

  it('starts at the defaults; a manager maps names (trimmed, kept per company), "" puts a default back; reports reads every key over NATS', async () => {
    const first = await get();
    expect(first.ledgers).toHaveLength(TALLY_LEDGERS.length);
    expect(first.ledgers.find((l) => l.key === 'cash')).toEqual({ key: 'cash', group: 'Cash-in-Hand', default_name: 'Cash', name: 'Cash' });
    expect(nameOf(first, 'sales_18')).toBe('Sales GST 18%');

    const r = await request(url).put('/accountant/ledgers').set(auth(two.mgr)).send({ ledgers: { cash: '  Cash   in Hand ', output_cgst: 'CGST @ सेल्स & Co' } }).expect(200);
    expect(nameOf(r.body, 'cash')).toBe('Cash in Hand');
    expect(nameOf(r.body, 'output_cgst')).toBe('CGST @ सेल्स & Co');
    // A later PUT keeps what it leaves out.
    await request(url).put('/accountant/ledgers').set(auth(two.mgr)).send({ ledgers: { upi: 'PhonePe Collections' } }).expect(200);
    const now = await get();
    expect([nameOf(now, 'cash'), nameOf(now, 'upi'), nameOf(now, 'output_cgst')]).toEqual(['Cash in Hand', 'PhonePe Collections', 'CGST @ सेल्स & Co']);
    expect(nameOf(await get(two.otherMgr), 'cash')).toBe('Cash');

    const nats = await nestRequest<AccountantLedgersNames>(two.nc, Subjects.tally.accountantLedgers, { companyId: two.companyId });
    expect(Object.keys(nats.names)).toHaveLength(TALLY_LEDGERS.length);
    expect(nats.names.cash).toBe('Cash in Hand');
    expect(nats.names.round_off).toBe('Round Off');

    await request(url).put('/accountant/ledgers').set(auth(two.mgr)).send({ ledgers: { upi: '' } }).expect(200);
    expect(nameOf(await get(), 'upi')).toBe('UPI Collections');
  });

  it('refuses an unknown ledger, a name that is not text or too long, two ledgers given one name, and staff (403); nothing changes', async () => {
    const before = await get();
    const cases: [unknown, string | RegExp][] = [
      [{ ledgers: { petty: 'Petty Cash' } }, '"petty" is not one of Bahi\'s ledgers.'],
      [{ ledgers: { cash: 5 } }, 'The Tally name for Cash must be text.'],
      [{ ledgers: { cash: 'x'.repeat(101) } }, 'The Tally name for Cash is longer than 100 characters.'],
      [{ ledgers: { cash: 'Bank\u0007' } }, 'The Tally name for Cash has a character Tally does not accept.'],
      [{ ledgers: { card: 'cash in hand' } }, 'Cash and Card Collections would both be "cash in hand" in Tally; give each its own name.'],
      [{ cash: 'Cash' }, /Send the ledger names as/],
    ];
    for (const [body, msg] of cases) {
      const r = await request(url).put('/accountant/ledgers').set(auth(two.mgr)).send(body as object).expect(400);
      if (typeof msg === 'string') expect(r.body.message).toBe(msg);
      else expect(String(r.body.message)).toMatch(msg);
    }
    await request(url).put('/accountant/ledgers').set(auth(two.staff)).send({ ledgers: { cash: 'Galla' } }).expect(403);
    await request(url).get('/accountant/ledgers').set(auth(two.staff)).expect(403);
    expect(await get()).toEqual(before);
  });
});
