import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { PNG } from 'pngjs';
import request from 'supertest';
import { DEFAULT_SHARE_TEMPLATES } from '@bahi/contracts';
import { fillTemplate, shareMessage, whatsappUrl } from '../src/share/message';
import { ShareLinkDoc, ShareViewDoc } from '../src/share/share.schema';
import { hashToken } from '../src/share/share.service';
import type { ShareSummary } from '../src/share/summary';
import * as F from './fixtures';
import { binary, startDocuments, tokenFor, type DocStack } from './helpers';
import { decodeQr, pdfText } from './pdf';
import { state } from './responders';

// Share links end to end: real nats-server, fixture owners on NATS, documents' own embedded MongoDB, real Chromium.
let stack: DocStack;
let links: Model<ShareLinkDoc>;
let views: Model<ShareViewDoc>;
const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;
const other = `Bearer ${tokenFor(F.OTHER_COMPANY_ID)}`;

beforeAll(async () => {
  stack = await startDocuments();
  links = stack.svc.app.get(getModelToken(ShareLinkDoc.name));
  views = stack.svc.app.get(getModelToken(ShareViewDoc.name));
}, 120_000);
afterAll(() => stack?.stop());

const share = (body: object, auth = staff) =>
  request(stack.url).post('/share').set('Authorization', auth).set('X-Forwarded-Host', 'shop.example.in').set('X-Forwarded-Proto', 'https').send(body);
const open = (path: string, from = '203.0.113.9') => request(stack.url).get(path).set('X-Forwarded-For', from).set('User-Agent', 'Mozilla/5.0 (Linux; Android 14) Test');
const tokenOf = (url: string) => url.split('/s/')[1]!;
// pdftotext writes Devanagari clusters with its own spacing: compare without white space.
const compact = (s: string) => s.normalize('NFC').replace(/\s+/g, '');

describe('POST /share', () => {
  it('makes a link of 192 random bits for a bill, stored only hashed, with the English message and the customer\'s WhatsApp', async () => {
    const before = Date.now();
    const res = await share({ kind: 'bill', id: 7 });
    expect(res.status).toBe(200);
    const { token, url, expiresAt, message, waUrl } = res.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 bytes base64url
    expect(url).toBe(`https://shop.example.in/s/${token}`);
    // The company sets no expiry: 30 days.
    const days = (Date.parse(expiresAt) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30 - 1 / 1440);
    expect(days).toBeLessThan(30 + 1 / 1440);
    // Bill 7: total 2561.92 - paid 1000 = 1561.92 due, rounded as printed to 1562.
    expect(message).toBe(`Dear Ramesh Gupta रमेश, here is your bill 7 from Sharma Kirana Stores for Rs 1,562.00. View and download: ${url}`);
    expect(waUrl).toBe(`https://wa.me/919123456780?text=${encodeURIComponent(message)}`);
    const stored = await links.findOne({ companyId: F.COMPANY_ID, kind: 'bill', docId: 7 }).lean();
    expect(stored).not.toBeNull();
    expect(stored!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.createdBy).toBe('Asha (3)');
  });

  it('writes Hindi and the reminder template; a walk-in bill opens WhatsApp without a number', async () => {
    const hi = await share({ kind: 'statement', id: 5, lang: 'hi', template: 'reminder' });
    expect(hi.status).toBe(200);
    // Statement of customer 5: due 2.50, due date 2025-04-01.
    expect(hi.body.message).toBe(`प्रिय Ramesh Gupta रमेश, Sharma Kirana Stores को Rs 2.50 का भुगतान 01-04-2025 को देय था। कृपया जल्द भुगतान करें। खाता विवरण: ${hi.body.url}`);
    const walkIn = await share({ kind: 'bill', id: 8 });
    // Bill 8 (walk-in): 1731.50 + 40 + 311.67 - 21.50 = 2061.67, all paid: the message names the bill's amount.
    expect(walkIn.body.message).toBe(`Dear Customer, here is your bill 8 from Sharma Kirana Stores for Rs 2,061.67. View and download: ${walkIn.body.url}`);
    expect(walkIn.body.waUrl).toBe(`https://wa.me/?text=${encodeURIComponent(walkIn.body.message)}`);
    const receipt = await share({ kind: 'receipt', id: 41 });
    // Receipt 41: the 750 received (811.92 is still due; the page shows both).
    expect(receipt.body.message).toContain('here is your receipt 41 from Sharma Kirana Stores for Rs 750.00.');
    const estimate = await share({ kind: 'estimate', id: 3 });
    expect(estimate.body.message).toContain('here is your estimate 3 from Sharma Kirana Stores for Rs 1,731.50.');
  });

  it("answers 404 for an unknown document and for another company's, and 400 for a bad body, storing nothing", async () => {
    const count = await links.countDocuments();
    const mine = await share({ kind: 'bill', id: 99 });
    expect(mine.status).toBe(404);
    expect(mine.body.message).toBe('Bill 99 was not found.');
    const theirs = await share({ kind: 'bill', id: 7 }, other);
    expect(theirs.status).toBe(404);
    for (const [body, msg] of [
      [{ kind: 'stockbook', id: 1 }, 'kind must be one of bill, estimate, receipt, statement, credit-note.'],
      [{ kind: 'bill', id: '7' }, 'id must be a whole number.'],
      [{ kind: 'bill', id: 7, lang: 'fr' }, "lang must be 'en' or 'hi'."],
    ] as const) {
      const res = await share(body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toContain(msg);
    }
    expect((await request(stack.url).post('/share').send({ kind: 'bill', id: 7 })).status).toBe(401);
    expect(await links.countDocuments()).toBe(count);
  });
});

describe('the public page /s/<token>', () => {
  let token: string;
  beforeAll(async () => {
    token = tokenOf((await share({ kind: 'bill', id: 7 })).body.url);
  });

  it('shows company, bill, amount due, the PDF link and a UPI QR with a Pay button, without a login or any script', async () => {
    const res = await open(`/s/${token}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    const html = res.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Sharma Kirana Stores');
    expect(html).toContain('Bill 7');
    expect(html).toContain('<div class="due" data-testid="due">₹1,562.00</div>');
    // The bill's own amount: 2561.92 - previous due 500.25 = 2061.67.
    expect(html).toContain('<dt>Amount</dt><dd>₹2,061.67</dd>');
    expect(html).toContain(`href="/s/${token}/pdf"`);
    const upi = 'upi://pay?pa=sharmakirana%40upi&amp;pn=Sharma%20Kirana%20Stores&amp;am=1562.00&amp;cu=INR&amp;tn=Bill%207';
    expect(html).toContain(`<a class="btn pay" href="${upi}">Pay ₹1,562.00</a>`);
    const dataUrl = /src="data:image\/png;base64,([^"]+)"/.exec(html)![1]!;
    expect(decodeQr(PNG.sync.read(Buffer.from(dataUrl, 'base64')))).toBe(upi.replace(/&amp;/g, '&'));
  });

  it('streams the same PDF the bill view prints', async () => {
    const res = await open(`/s/${token}/pdf`).buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.body).replace(/\s+/g, ' ');
    expect(text).toContain('Sharma Kirana Stores');
    expect(text).toContain('Total ₹2,561.92');
  });

  it('logs every view: time, a hash of the address (never the address), the browser, page or PDF', async () => {
    const link = await links.findOne({ tokenHash: { $exists: true }, docId: 7, companyId: F.COMPANY_ID }).sort({ createdAt: -1 }).lean();
    const logged = await views.find({ linkId: String(link!._id) }).sort({ at: 1 }).lean();
    expect(logged.map((v) => v.what)).toEqual(['page', 'pdf']);
    expect(logged[0]!.userAgent).toBe('Mozilla/5.0 (Linux; Android 14) Test');
    expect(logged[0]!.ipHash).toMatch(/^[0-9a-f]{32}$/);
    expect(logged[0]!.ipHash).toBe(logged[1]!.ipHash);
    expect(JSON.stringify(logged)).not.toContain('203.0.113.9');
    await open(`/s/${token}`, '198.51.100.1');
    const third = await views.find({ linkId: String(link!._id) }).sort({ at: 1 }).lean();
    expect(third).toHaveLength(3);
    expect(third[2]!.ipHash).not.toBe(logged[0]!.ipHash);
    // The document's list shows the link with its views.
    const list = await request(stack.url).get('/share?kind=bill&id=7').set('Authorization', staff);
    expect(list.status).toBe(200);
    const row = list.body.links.find((l: { token: string }) => l.token === token);
    expect(row.views).toBe(3);
    expect(row.lastViewedAt).toBe(new Date(third[2]!.at).toISOString());
    expect((await request(stack.url).get('/share?kind=bill&id=7').set('Authorization', other)).body).toEqual({ links: [] });
  });

  it('answers 404 with a friendly page for a token that does not exist or is malformed', async () => {
    for (const t of ['A'.repeat(32), 'short', `${token}x`]) {
      const res = await open(`/s/${t}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Link not found');
      const pdf = await open(`/s/${t}/pdf`);
      expect(pdf.status).toBe(404);
    }
  });

  it('answers 410 once the link has expired', async () => {
    const t = tokenOf((await share({ kind: 'receipt', id: 41 })).body.url);
    expect((await open(`/s/${t}`)).status).toBe(200);
    expect((await links.updateOne({ tokenHash: hashToken(t) }, { $set: { expiresAt: new Date(Date.now() - 1000) } })).modifiedCount).toBe(1);
    const res = await open(`/s/${t}`);
    expect(res.status).toBe(410);
    expect(res.text).toContain('This link has expired.');
    expect((await open(`/s/${t}/pdf`)).status).toBe(410);
  });

  it('revokes from the document: 410 afterwards; another company cannot revoke it (404)', async () => {
    const made = await share({ kind: 'estimate', id: 3 });
    const t = made.body.token as string;
    const theirs = await request(stack.url).post('/share/revoke').set('Authorization', other).send({ token: t });
    expect(theirs.status).toBe(404);
    expect((await open(`/s/${t}`)).status).toBe(200);
    const revoked = await request(stack.url).post('/share/revoke').set('Authorization', staff).send({ token: t });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ done: true });
    const res = await open(`/s/${t}`);
    expect(res.status).toBe(410);
    expect(res.text).toContain('The shop has withdrawn this link.');
    // A revoked link leaves the document's list of live links.
    const list = await request(stack.url).get('/share?kind=estimate&id=3').set('Authorization', staff);
    expect(list.body.links.map((l: { token: string }) => l.token)).not.toContain(t);
  });
});

describe('the public page in the language the link was sent in', () => {
  afterEach(() => {
    state.docLanguage = undefined;
  });

  it('a Hindi link shows its page (labels, amount due, Pay, Download PDF, validity) and its PDF in Hindi; the figures stay en-IN', async () => {
    const made = await share({ kind: 'bill', id: 7, lang: 'hi' });
    expect(made.status).toBe(200);
    expect((await links.findOne({ tokenHash: hashToken(made.body.token) }).lean())!.lang).toBe('hi');
    const res = await open(`/s/${made.body.token}`);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html).toContain('<html lang="hi">');
    expect(html).toContain('<h1>बिल 7</h1>');
    // Bill 7: 2561.92 - 1000 paid = 1561.92, rounded as printed to 1562; its own amount 2561.92 - 500.25 previous due = 2061.67.
    expect(html).toContain('<div class="due" data-testid="due">₹1,562.00</div><div class="due-label">बकाया राशि</div>');
    expect(html).toContain('<dt>राशि</dt><dd>₹2,061.67</dd>');
    expect(html).toContain('<dt>बकाया राशि</dt><dd>₹1,562.00</dd>');
    expect(html).toContain('<dt>तारीख़</dt><dd>14-03-2025</dd>');
    expect(html).toContain('<dt>देय तारीख़</dt><dd>14-04-2025</dd>');
    expect(html).toContain('>₹1,562.00 भुगतान करें</a>');
    expect(html).toContain('>किसी भी UPI ऐप से स्कैन करें, या<');
    expect(html).toContain(`<a class="btn pdf" href="/s/${made.body.token}/pdf">PDF डाउनलोड करें</a>`);
    expect(html).toMatch(/<footer>यह लिंक \d{2}-\d{2}-\d{4} तक मान्य है।<\/footer>/);
    for (const english of ['amount due', 'Download PDF', 'Pay ₹', 'Scan with', 'valid until', '<dt>Amount']) expect(html).not.toContain(english);
    const pdf = await open(`/s/${made.body.token}/pdf`).buffer(true).parse(binary);
    expect(pdf.status).toBe(200);
    const text = compact(pdfText(pdf.body));
    for (const hindi of ['कर बीजक', 'बिल नं.: 7']) expect(text).toContain(compact(hindi));
    expect(text).not.toContain('TAXINVOICE');
    // An English link of the same bill keeps its English page and PDF.
    const en = await share({ kind: 'bill', id: 7, lang: 'en' });
    expect((await open(`/s/${en.body.token}`)).text).toContain('<div class="due-label">amount due</div>');
    expect(compact(pdfText((await open(`/s/${en.body.token}/pdf`).buffer(true).parse(binary)).body))).toContain('TAXINVOICE');
  });

  it("without lang the message, the page and the PDF follow the company's document language; a link kept without one does too", async () => {
    state.docLanguage = 'hi';
    const made = await share({ kind: 'receipt', id: 41 });
    expect(made.status).toBe(200);
    expect(made.body.message).toContain('प्रिय Ramesh Gupta रमेश');
    expect(made.body.message).toContain('रसीद 41');
    const html = (await open(`/s/${made.body.token}`)).text;
    expect(html).toContain('<h1>भुगतान रसीद 41</h1>');
    // Receipt 41: 750 received, 811.92 still due.
    expect(html).toContain('<dt>प्राप्त राशि</dt><dd>₹750.00</dd>');
    expect(html).toContain('<dt>बकाया राशि</dt><dd>₹811.92</dd>');
    const pdf = compact(pdfText((await open(`/s/${made.body.token}/pdf`).buffer(true).parse(binary)).body));
    expect(pdf).toContain(compact('भुगतान रसीद'));
    expect(pdf).not.toContain('MONEYRECEIPT');
    // A link stored before links kept their language speaks the company's.
    const older = await share({ kind: 'estimate', id: 3, lang: 'en' });
    expect((await links.updateOne({ tokenHash: hashToken(older.body.token) }, { $set: { lang: null } })).modifiedCount).toBe(1);
    expect((await open(`/s/${older.body.token}`)).text).toContain('<h1>अनुमान पत्र 3</h1>');
    state.docLanguage = undefined;
    expect((await open(`/s/${older.body.token}`)).text).toContain('<h1>Estimate 3</h1>');
  });

  it("answers 410 in the link's language (expired, withdrawn, page and PDF) and 404 in the browser's", async () => {
    const expired = await share({ kind: 'receipt', id: 41, lang: 'hi' });
    await links.updateOne({ tokenHash: hashToken(expired.body.token) }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
    for (const path of [`/s/${expired.body.token}`, `/s/${expired.body.token}/pdf`]) {
      const res = await open(path);
      expect(res.status).toBe(410);
      expect(res.text).toContain('<html lang="hi">');
      expect(res.text).toContain('<h1 data-status="410">लिंक की अवधि ख़त्म</h1>');
      expect(res.text).toContain('इस लिंक की अवधि ख़त्म हो गई है। कृपया दुकान से नया लिंक भेजने को कहें।');
    }
    const withdrawn = await share({ kind: 'estimate', id: 3, lang: 'hi' });
    expect((await request(stack.url).post('/share/revoke').set('Authorization', staff).send({ token: withdrawn.body.token })).status).toBe(200);
    const gone = await open(`/s/${withdrawn.body.token}`);
    expect(gone.status).toBe(410);
    expect(gone.text).toContain('दुकान ने यह लिंक वापस ले लिया है। कृपया उनसे नया लिंक भेजने को कहें।');
    expect(gone.text).not.toContain('withdrawn');
    // No link to ask for an unknown token: the browser's first language decides.
    const unknown = `/s/${'B'.repeat(32)}`;
    const hindi = await open(unknown).set('Accept-Language', 'hi-IN,hi;q=0.9,en;q=0.8');
    expect(hindi.status).toBe(404);
    expect(hindi.text).toContain('<h1 data-status="404">लिंक नहीं मिला</h1>');
    expect(hindi.text).toContain('यह लिंक मौजूद नहीं है।');
    const english = await open(unknown).set('Accept-Language', 'en-IN,hi;q=0.9');
    expect(english.status).toBe(404);
    expect(english.text).toContain('Link not found');
    expect(english.text).toContain('<html lang="en">');
  });
});

describe('messages', () => {
  const doc: ShareSummary = { kind: 'bill', title: 'Bill', number: '12', date: '2026-03-01', amount: '123456.5', due: '100000', dueDate: '2026-03-15', customerName: 'Meena', mobile: '9876543210', note: null };

  it("fills a company's own template in English and Hindi, leaving unknown placeholders as written", () => {
    const en = shareMessage('{name}: {document} of {company}, {amount} by {due_date}. {link} {unknown}', doc, { company: 'Gupta Stores', link: 'https://x.in/s/t', lang: 'en' });
    // Due 100000 -> lakh grouping 1,00,000.00
    expect(en).toBe('Meena: bill 12 of Gupta Stores, Rs 1,00,000.00 by 15-03-2026. https://x.in/s/t {unknown}');
    const hi = shareMessage(DEFAULT_SHARE_TEMPLATES.document.hi, { ...doc, due: '0' }, { company: 'गुप्ता स्टोर्स', link: 'L', lang: 'hi' });
    // Nothing due: the bill's amount 1,23,456.50.
    expect(hi).toBe('प्रिय Meena, गुप्ता स्टोर्स की ओर से आपका बिल 12 Rs 1,23,456.50 का है। देखें और डाउनलोड करें: L');
    expect(fillTemplate('{a}{a}{b}', { a: '$&' })).toBe('$&$&{b}');
  });

  it('encodes the whole message into the WhatsApp link', () => {
    expect(whatsappUrl('9876543210', 'a & b ₹ #1')).toBe('https://wa.me/919876543210?text=a%20%26%20b%20%E2%82%B9%20%231');
    expect(whatsappUrl(null, 'hi')).toBe('https://wa.me/?text=hi');
  });
});
