import request from 'supertest';
import type { NatsConnection, Subscription } from 'nats';
import { decodeEvent, nestRequest } from '@bahi/auth';
import { DEFAULT_SHARE_TEMPLATES, Subjects } from '@bahi/contracts';
import { auth, startTwoCompanies, type Stack, type TwoCompanies } from './helpers';

describe('identity: bills and sharing settings (bill_format, share_expiry_days, share_templates)', () => {
  let s: Stack;
  let nc: NatsConnection;
  let mgr: string;
  let staff: string;
  let companyId: number;
  let otherMgr: string;
  let otherId: number;
  let two: TwoCompanies;
  let sub: Subscription;
  const seen: unknown[] = [];
  const base = () => ({ id: companyId, name: 'Demo Traders', add1: '12 Market Road', add2: 'Mumbai', mob1: '9876543210', mob2: '', email: 'hello@demo.local' });
  const details = async (token = mgr) => (await request(s.url).get('/getCompanyDetails').set(auth(token)).expect(200)).body;
  const save = (extra: object, status = 200) => request(s.url).post('/setCompanyDetails').set(auth(mgr)).send({ ...base(), ...extra }).expect(status);

  beforeAll(async () => {
    two = await startTwoCompanies({ cName: 'Gupta Traders', cMob: '9812345678', mEmail: 'ravi@gupta.in' });
    ({ s, nc, mgr, staff, companyId, otherMgr, otherId } = two);
    sub = nc.subscribe(Subjects.identity.companyChanged, { callback: (_e, m) => seen.push(decodeEvent(m.data)) });
    await nc.flush();
  });
  afterAll(async () => {
    sub?.unsubscribe();
    await two?.stop();
  });

  it('ships A5, 30 days and the default English and Hindi templates to a company that never set them', async () => {
    const d = await details();
    expect(d).toMatchObject({ bill_format: 'a5', share_expiry_days: 30, share_templates: DEFAULT_SHARE_TEMPLATES });
    // The Hindi templates are Devanagari, and every default uses only known placeholders.
    expect(d.share_templates.document.hi).toMatch(/[\u0900-\u097F]/);
    expect(d.share_templates.reminder.hi).toMatch(/[\u0900-\u097F]/);
    expect(d.share_templates.reminder.en).toContain('{due_date}');
    for (const t of [d.share_templates.document.en, d.share_templates.document.hi]) expect(t).toContain('{link}');
    // Also over NATS, as documents and share links read them.
    const viaNats = await nestRequest(nc, Subjects.identity.companyDetails, { companyId });
    expect(viaNats).toMatchObject({ bill_format: 'a5', share_expiry_days: 30, share_templates: DEFAULT_SHARE_TEMPLATES });
  });

  it('saves the format, the expiry and edited templates, emits identity.company.changed, and NATS returns them', async () => {
    seen.length = 0;
    const en = 'Hello {name}, {company} sent your {document} of {amount}: {link}';
    await save({ bill_format: 'thermal-80', share_expiry_days: 7, share_templates: { document: { en: `  ${en} ` } } });
    await nc.flush();
    expect(seen).toEqual([{ companyId }]);
    const d = await details(staff);
    expect(d).toMatchObject({ bill_format: 'thermal-80', share_expiry_days: 7 });
    // Only the edited template changed; the other three are still the defaults.
    expect(d.share_templates).toEqual({ document: { en, hi: DEFAULT_SHARE_TEMPLATES.document.hi }, reminder: DEFAULT_SHARE_TEMPLATES.reminder, gstr2b_missing: DEFAULT_SHARE_TEMPLATES.gstr2b_missing });
    const viaNats = await nestRequest(nc, Subjects.identity.companyDetails, { companyId });
    expect(viaNats).toMatchObject({ bill_format: 'thermal-80', share_expiry_days: 7, share_templates: d.share_templates });
    // Another company is untouched.
    expect(await details(otherMgr)).toMatchObject({ id: otherId, bill_format: 'a5', share_expiry_days: 30, share_templates: DEFAULT_SHARE_TEMPLATES });
  });

  it('keeps every setting when a body leaves them out, and resets a template sent as empty to the default', async () => {
    await save({ name: 'Demo Traders' });
    const hi = 'नमस्ते {name}, {amount} की बकाया राशि {due_date} को देय थी: {link}';
    await save({ bill_format: 'thermal-58', share_templates: { reminder: { hi } } });
    let d = await details();
    expect(d.bill_format).toBe('thermal-58');
    expect(d.share_expiry_days).toBe(7);
    expect(d.share_templates.document.en).toBe('Hello {name}, {company} sent your {document} of {amount}: {link}');
    expect(d.share_templates.reminder.hi).toBe(hi);
    await save({ share_templates: { document: { en: '' } } });
    d = await details();
    expect(d.share_templates).toEqual({ document: DEFAULT_SHARE_TEMPLATES.document, reminder: { en: DEFAULT_SHARE_TEMPLATES.reminder.en, hi }, gstr2b_missing: DEFAULT_SHARE_TEMPLATES.gstr2b_missing });
    // null resets all four.
    await save({ share_templates: null });
    expect((await details()).share_templates).toEqual(DEFAULT_SHARE_TEMPLATES);
  });

  it('refuses a bad format, expiry or template with 400 naming the field, changes nothing and emits nothing', async () => {
    await save({ bill_format: 'thermal-80', share_expiry_days: 45 });
    const before = await details();
    seen.length = 0;
    const long = 'x'.repeat(1001);
    const cases: [object, RegExp][] = [
      [{ bill_format: 'a4' }, /bill_format must be one of a5, thermal-80, thermal-58/],
      [{ bill_format: 80 }, /bill_format/],
      [{ share_expiry_days: 0 }, /share_expiry_days must be a whole number of days from 1 to 365/],
      [{ share_expiry_days: 366 }, /share_expiry_days .*1 to 365/],
      [{ share_expiry_days: 2.5 }, /share_expiry_days/],
      [{ share_expiry_days: '30' }, /share_expiry_days/],
      [{ share_templates: { document: { en: long } } }, /share_templates\.document\.en has 1001 characters; at most 1000/],
      [{ share_templates: { reminder: { hi: 'नमस्ते {naam}, {link}' } } }, /share_templates\.reminder\.hi has an unknown placeholder \{naam\}/],
      [{ share_templates: { invoice: { en: 'x' } } }, /share_templates may hold only document, reminder, gstr2b_missing, not 'invoice'/],
      [{ share_templates: { document: { fr: 'x' } } }, /share_templates\.document may hold only en and hi/],
      // Each kind has its own placeholders: {bill_no} is the GSTR-2B message's, {link} is not.
      [{ share_templates: { document: { en: 'Bill {bill_no}: {link}' } } }, /^share_templates\.document\.en has an unknown placeholder \{bill_no\}; use \{name\} \{amount\} \{due_date\} \{link\} \{company\} \{document\}\.$/],
      [{ share_templates: { gstr2b_missing: { hi: 'बिल {bill_no} {link}' } } }, /^share_templates\.gstr2b_missing\.hi has an unknown placeholder \{link\}; use \{name\} \{company\} \{bill_no\} \{bill_date\} \{tax\} \{period\}\.$/],
      [{ share_templates: { document: { en: 7 } } }, /share_templates\.document\.en must be text/],
      [{ share_templates: 'hello' }, /share_templates must be an object/],
    ];
    for (const [extra, msg] of cases) {
      const r = await save({ name: 'Changed Name', ...extra }, 400);
      expect(r.body.message).toMatch(msg);
    }
    await nc.flush();
    expect(seen).toEqual([]);
    expect(await details()).toEqual(before);
  });

  it('the GSTR-2B message (gstr2b_missing) is edited per company and language, and reset to the default with an empty text', async () => {
    const en = 'Hi {name}, bill {bill_no} of {bill_date} (GST {tax}) is not in our GSTR-2B for {period}. - {company}';
    const hi = 'नमस्ते {name}, बिल {bill_no} ({bill_date}, जीएसटी {tax}) {period} के GSTR-2B में नहीं है। - {company}';
    await save({ share_templates: { gstr2b_missing: { en: ` ${en} `, hi } } });
    let d = await details(staff);
    expect(d.share_templates.gstr2b_missing).toEqual({ en, hi });
    expect(d.share_templates.document).toEqual(DEFAULT_SHARE_TEMPLATES.document);
    expect((await nestRequest<{ share_templates: Record<string, unknown> }>(nc, Subjects.identity.companyDetails, { companyId })).share_templates.gstr2b_missing).toEqual({ en, hi });
    expect((await details(otherMgr)).share_templates.gstr2b_missing).toEqual(DEFAULT_SHARE_TEMPLATES.gstr2b_missing);
    await save({ share_templates: { gstr2b_missing: { en: '' } } });
    d = await details();
    expect(d.share_templates.gstr2b_missing).toEqual({ en: DEFAULT_SHARE_TEMPLATES.gstr2b_missing.en, hi });
    expect(DEFAULT_SHARE_TEMPLATES.gstr2b_missing.hi).toMatch(/[\u0900-\u097F]/);
    await save({ share_templates: { gstr2b_missing: { hi: '' } } });
    expect((await details()).share_templates.gstr2b_missing).toEqual(DEFAULT_SHARE_TEMPLATES.gstr2b_missing);
  });

  it('lets only a manager change them', async () => {
    await request(s.url).post('/setCompanyDetails').set(auth(staff)).send({ ...base(), bill_format: 'a5' }).expect(403);
    expect((await details()).bill_format).toBe('thermal-80');
  });
});
