import { newSessionId, signToken, verifyToken } from '@bahi/auth';
import type { TokenSubject } from '@bahi/contracts';
import { checkBearer, MESSAGES, type Claims, type TokenChecker } from '../src/auth';

const secret = 'gateway-auth-secret-0123456789';
const subject: TokenSubject = { sub: '5', uid: 5, name: 'Ravi', email: 'ravi@demo.local', position: 'staff', companyId: 1, companyName: 'Demo Traders', sid: 's' };

/** The checker main.ts wires: @bahi/auth's verifyToken, with a revocation flag. */
function checker(revoked: () => boolean = () => false): TokenChecker {
  return { verify: (t) => verifyToken(t, secret) as unknown as Claims, isRevoked: revoked, revokeLocally: () => undefined };
}

describe('bearer checks', () => {
  afterEach(() => jest.restoreAllMocks());

  it('refuses a token that has expired since it was last accepted, with the expiry message', () => {
    const token = signToken({ ...subject, sid: newSessionId() }, secret, 60);
    const c = checker();
    const first = checkBearer(c, `Bearer ${token}`);
    expect(first).toHaveProperty('claims');
    jest.spyOn(Date, 'now').mockReturnValue(((first as { claims: { exp: number } }).claims.exp + 1) * 1000);
    expect(checkBearer(c, `Bearer ${token}`)).toEqual({ message: MESSAGES.expired, challenge: 'Bearer error="invalid_token"' });
  });

  it('asks about revocation on every check of an accepted token', () => {
    let revoked = false;
    const c = checker(() => revoked);
    const token = signToken({ ...subject, sid: newSessionId() }, secret);
    expect(checkBearer(c, `Bearer ${token}`)).toHaveProperty('claims');
    revoked = true;
    expect(checkBearer(c, `Bearer ${token}`)).toEqual({ message: MESSAGES.revoked, challenge: 'Bearer error="invalid_token"' });
  });

  it('refuses a tampered token every time, and a malformed or missing header', () => {
    const tampered = signToken({ ...subject, sid: newSessionId() }, secret).slice(0, -2) + 'xx';
    const c = checker();
    for (let i = 0; i < 2; i++) expect(checkBearer(c, `Bearer ${tampered}`)).toEqual({ message: MESSAGES.invalid, challenge: 'Bearer error="invalid_token"' });
    expect(checkBearer(c, 'Basic abc')).toEqual({ message: MESSAGES.malformed, challenge: 'Bearer error="invalid_request"' });
    expect(checkBearer(c, undefined)).toEqual({ message: MESSAGES.missing, challenge: 'Bearer' });
  });
});
