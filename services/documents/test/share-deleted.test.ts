import { getModelToken } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { connect, type NatsConnection } from 'nats';
import request from 'supertest';
import { nestEmit } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { loadDocumentsConfig } from '../src/config';
import { shareMessage } from '../src/share/message';
import { escapeHtml } from '../src/share/page';
import { ShareLinkDoc, ShareViewDoc } from '../src/share/share.schema';
import { hashToken, ShareService } from '../src/share/share.service';
import * as F from './fixtures';
import { startDocuments, tokenFor, type DocStack } from './helpers';
import { state } from './responders';

// Share links of a deleted company, and the view log's retention: real nats-server, fixture owners
// on NATS (identity answering 404 for a deleted company, as it does), documents' own MongoDB.
let stack: DocStack;
let links: Model<ShareLinkDoc>;
let views: Model<ShareViewDoc>;
let shares: ShareService;
let nc: NatsConnection;
const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;
const DAY = 86_400_000;

beforeAll(async () => {
  stack = await startDocuments();
  links = stack.svc.app.get(getModelToken(ShareLinkDoc.name));
  views = stack.svc.app.get(getModelToken(ShareViewDoc.name));
  shares = stack.svc.app.get(ShareService);
  nc = await connect({ servers: stack.nats.url });
}, 120_000);
afterAll(async () => {
  await nc?.close();
  await stack?.stop();
});
afterEach(() => state.deletedCompanies.clear());

const share = async (body: object): Promise<string> => {
  const res = await request(stack.url).post('/share').set('Authorization', staff).send(body);
  expect(res.status).toBe(200);
  return res.body.token as string;
};
const open = (path: string) => request(stack.url).get(path).set('X-Forwarded-For', '203.0.113.9');
const revokedAt = async (token: string) => (await links.findOne({ tokenHash: hashToken(token) }).lean())!.revokedAt;

/** The friendly 410 page: HTML, the withdrawn sentence, no JSON and no internal id. */
function expectWithdrawn(res: request.Response) {
  expect(res.status).toBe(410);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain('The shop has withdrawn this link.');
  expect(res.text).not.toContain('not found');
  expect(res.text).not.toMatch(/Company \d/);
  expect(res.headers['cache-control']).toBe('no-store');
}

describe('share links of a deleted company', () => {
  it('identity.company.deleted revokes every live link of that company, and only of that company', async () => {
    const bill = await share({ kind: 'bill', id: 7 });
    const receipt = await share({ kind: 'receipt', id: 41 });
    expect((await open(`/s/${bill}`)).status).toBe(200);
    // Another company's link, stored as POST /share stores one.
    const theirs = 'T'.repeat(32);
    await links.create({ tokenHash: hashToken(theirs), token: theirs, companyId: F.OTHER_COMPANY_ID, kind: 'bill', docId: 1, createdBy: 'X (1)', expiresAt: new Date(Date.now() + DAY), revokedAt: null, lang: 'en' });
    state.deletedCompanies.add(F.COMPANY_ID);
    nestEmit(nc, Subjects.identity.companyDeleted, { companyId: F.COMPANY_ID });
    await nc.flush();
    for (let i = 0; i < 100 && !(await revokedAt(receipt)); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await revokedAt(bill)).toBeInstanceOf(Date);
    expect(await revokedAt(receipt)).toBeInstanceOf(Date);
    expect(await revokedAt(theirs)).toBeNull();
    for (const path of [`/s/${bill}`, `/s/${bill}/pdf`, `/s/${receipt}`, `/s/${receipt}/pdf`]) expectWithdrawn(await open(path));
    // A malformed event changes nothing.
    nestEmit(nc, Subjects.identity.companyDeleted, { companyId: { $gt: 0 } } as never);
    await nc.flush();
    expect(await revokedAt(theirs)).toBeNull();
  });

  it('a link whose company was deleted while documents missed the event answers the 410 page (page and PDF) and is revoked then', async () => {
    const bill = await share({ kind: 'bill', id: 7 });
    const estimate = await share({ kind: 'estimate', id: 3 });
    expect(await revokedAt(bill)).toBeNull();
    state.deletedCompanies.add(F.COMPANY_ID);
    // Before: 404 JSON {"message":"Company 1 not found."}.
    expectWithdrawn(await open(`/s/${bill}`));
    expect(await revokedAt(bill)).toBeInstanceOf(Date);
    expect(await revokedAt(estimate)).toBeInstanceOf(Date);
    expectWithdrawn(await open(`/s/${estimate}/pdf`));
    // A link kept without a language still gets its page (in English) though identity has no company to ask.
    await links.updateOne({ tokenHash: hashToken(estimate) }, { $set: { lang: null } });
    expectWithdrawn(await open(`/s/${estimate}`));
  });

  it('a document its owner no longer has answers the friendly 404 page, not the owner\'s JSON', async () => {
    const bill = await share({ kind: 'bill', id: 7 });
    await links.updateOne({ tokenHash: hashToken(bill) }, { $set: { docId: 99 } });
    for (const path of [`/s/${bill}`, `/s/${bill}/pdf`]) {
      const res = await open(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('Link not found');
      expect(res.text).not.toContain('Bill 99');
    }
  });
});

describe('the view log is kept for a retention, then pruned', () => {
  it('keeps 400 days by default (BAHI_SHARE_VIEW_RETENTION_DAYS) and prunes what is older', async () => {
    expect(loadDocumentsConfig({}).shareViewRetentionDays).toBe(400);
    expect(loadDocumentsConfig({ BAHI_SHARE_VIEW_RETENTION_DAYS: '30' }).shareViewRetentionDays).toBe(30);
    expect(() => loadDocumentsConfig({ BAHI_SHARE_VIEW_RETENTION_DAYS: '0' })).toThrow('BAHI_SHARE_VIEW_RETENTION_DAYS must be a positive whole number');
    const now = Date.now();
    const view = (daysAgo: number, ipHash: string) => ({ linkId: 'retention', companyId: F.COMPANY_ID, at: new Date(now - daysAgo * DAY), ipHash, userAgent: 'test', what: 'page' as const });
    await views.insertMany([view(401, 'old-1'), view(400.01, 'old-2'), view(399.99, 'kept-1'), view(1, 'kept-2')]);
    expect(await shares.pruneViews(now)).toBe(2);
    expect((await views.find({ linkId: 'retention' }).lean()).map((v) => v.ipHash).sort()).toEqual(['kept-1', 'kept-2']);
    expect(await shares.pruneViews(now)).toBe(0);
  });
});

describe('names stored before the services stripped bidi controls', () => {
  it('never reach the WhatsApp message or the share page with them', () => {
    const doc = { kind: 'bill' as const, title: 'Bill', number: '12', date: '2026-03-01', amount: '100', due: '0', dueDate: null, customerName: 'Ramesh \u202Egnp.exe\u202C रमेश', mobile: null, note: null };
    expect(shareMessage('{name} / {company}: {link}', doc, { company: 'Gupta \u2067Stores\u2069', link: 'L', lang: 'en' })).toBe('Ramesh gnp.exe रमेश / Gupta Stores: L');
    expect(escapeHtml('<b>\u202ERamesh</b> रमेश')).toBe('&lt;b&gt;Ramesh&lt;/b&gt; रमेश');
  });
});
