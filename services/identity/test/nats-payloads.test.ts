import { nestRequest, RemoteError } from '@bahi/auth';
import { Subjects } from '@bahi/contracts';
import { connect, type NatsConnection } from 'nats';
import { startIdentity, STAFF, type Stack } from './helpers';

let s: Stack;
let nc: NatsConnection;

beforeAll(async () => {
  s = await startIdentity();
  nc = await connect({ servers: s.nats.url });
}, 60_000);
afterAll(async () => {
  await nc?.close();
  await s?.stop();
});

describe('identity NATS handlers refuse malformed payloads', () => {
  it('answer 400 with a sentence for string or object ids, company 0, a non-e-mail, unknown fields', async () => {
    const bad: [string, unknown][] = [
      [Subjects.identity.companyDetails, { companyId: '1' }],
      [Subjects.identity.companyDetails, { companyId: { $gt: 0 } }],
      [Subjects.identity.companyDetails, { companyId: 0 }],
      [Subjects.identity.companyDetails, { companyId: 1, extra: true }],
      [Subjects.identity.userLookup, { companyId: 1, email: { $ne: '' } }],
      [Subjects.identity.userLookup, { companyId: 1, email: `${'a'.repeat(300)}@x.in` }],
      [Subjects.identity.userLookup, { companyId: 1, userId: '1' }],
      [Subjects.identity.userLookup, { companyId: -1, email: STAFF.email }],
      [Subjects.identity.sessionRevocations, { companyId: 1 }],
      [Subjects.identity.sessionRevocations, []],
    ];
    const outcomes = await Promise.all(
      bad.map(([subject, data]) =>
        nestRequest(nc, subject, data).then(
          (r) => `${subject} ${JSON.stringify(data).slice(0, 80)}: answered ${JSON.stringify(r).slice(0, 80)}`,
          (e: RemoteError) => (e.status === 400 && /\w.*\.$/.test(e.message) ? 'refused' : `${subject} ${JSON.stringify(data).slice(0, 80)}: ${e.status} ${e.message}`),
        ),
      ),
    );
    expect(outcomes.filter((o) => o !== 'refused')).toEqual([]);
    // What other services really send still works.
    expect(await nestRequest<{ revocations: unknown[] }>(nc, Subjects.identity.sessionRevocations, {})).toMatchObject({ revocations: expect.any(Array) });
    expect(await nestRequest(nc, Subjects.identity.companyDetails, { companyId: 1 })).toMatchObject({ id: 1 });
  });
});
