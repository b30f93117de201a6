import request from 'supertest';
import * as F from './fixtures';
import { startDocuments, tokenFor, type DocStack } from './helpers';
import { state } from './responders';

// The public address the platform admin set in Setting reaches documents with the company
// (identity.company.details public_url) and wins over BAHI_PUBLIC_URL and the request's host.
let stack: DocStack;
const staff = `Bearer ${tokenFor(F.COMPANY_ID)}`;

beforeAll(async () => {
  stack = await startDocuments();
}, 120_000);
afterAll(async () => {
  state.publicUrl = null;
  await stack?.stop();
});

const share = () =>
  request(stack.url).post('/share').set('Authorization', staff).set('X-Forwarded-Host', 'localhost:8080').set('X-Forwarded-Proto', 'http').send({ kind: 'bill', id: 7 });

it("builds share links on the address set in Setting, else on the request's host", async () => {
  state.publicUrl = 'https://bahi.sharma-kirana.in';
  const set = await share();
  expect(set.status).toBe(200);
  expect(set.body.url).toBe(`https://bahi.sharma-kirana.in/s/${set.body.token}`);
  expect(set.body.message).toContain(`https://bahi.sharma-kirana.in/s/${set.body.token}`);
  // The list of the bill's links shows them on the same address.
  const list = await request(stack.url).get('/share?kind=bill&id=7').set('Authorization', staff).set('X-Forwarded-Host', 'localhost:8080');
  expect(list.status).toBe(200);
  expect(list.body.links.map((l: { url: string }) => l.url)).toContain(`https://bahi.sharma-kirana.in/s/${set.body.token}`);

  // Cleared in Setting (and no BAHI_PUBLIC_URL in this stack): the address the browser used.
  state.publicUrl = null;
  const unset = await share();
  expect(unset.body.url).toBe(`http://localhost:8080/s/${unset.body.token}`);
});
