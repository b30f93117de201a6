import jwt from 'jsonwebtoken';
import { AuthError, bearerToken, newSessionId, signToken, verifyToken } from '../src';
import { REMEMBERED_TOKENS } from '../src/token';
import type { TokenSubject } from '@bahi/contracts';

const secret = 'test-secret-0123456789';
const subject: TokenSubject = {
  sub: '7',
  uid: 7,
  name: 'Asha',
  email: 'asha@demo.local',
  position: 'manager',
  companyId: 3,
  companyName: 'Demo Traders',
  sid: newSessionId(),
};

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthError);
    return (e as AuthError).code;
  }
  throw new Error('expected an AuthError');
}

describe('tokens', () => {
  it('signs a 24 h token whose claims verify', () => {
    const claims = verifyToken(signToken(subject, secret), secret);
    expect(claims).toMatchObject(subject);
    expect(claims.exp - claims.iat).toBe(24 * 3600);
  });

  it('refuses a missing, tampered, foreign or expired token', () => {
    expect(codeOf(() => verifyToken(undefined, secret))).toBe('missing');
    const token = signToken(subject, secret);
    expect(codeOf(() => verifyToken(token.slice(0, -2) + 'xx', secret))).toBe('invalid');
    expect(codeOf(() => verifyToken(token, 'another-secret'))).toBe('invalid');
    expect(codeOf(() => verifyToken(signToken(subject, secret, -10), secret))).toBe('expired');
  });

  it('carries the forced password change claim, and refuses any other value of it', () => {
    expect(verifyToken(signToken({ ...subject, fc: true }, secret), secret).fc).toBe(true);
    expect(verifyToken(signToken(subject, secret), secret).fc).toBeUndefined();
    expect(codeOf(() => verifyToken(jwt.sign({ ...subject, fc: 'no' }, secret), secret))).toBe('invalid');
  });

  it('refuses a token of another algorithm or without our claims', () => {
    const none = jwt.sign({ ...subject }, '', { algorithm: 'none' });
    expect(codeOf(() => verifyToken(none, secret))).toBe('invalid');
    const bare = jwt.sign({ hello: 'world' }, secret);
    expect(codeOf(() => verifyToken(bare, secret))).toBe('invalid');
    const badPosition = jwt.sign({ ...subject, position: 'owner' }, secret);
    expect(codeOf(() => verifyToken(badPosition, secret))).toBe('invalid');
  });

  it('reads the bearer header', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer x')).toBe('x');
    expect(bearerToken('Basic x')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });

  it('gives every failure status 401 and a clear message', () => {
    const e = new AuthError('expired');
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/expired/);
  });
});

describe('remembered tokens', () => {
  afterEach(() => jest.restoreAllMocks());

  // A fresh session id each: the same claims signed in the same second give the same token.
  const fresh = (ttl?: number) => signToken({ ...subject, sid: newSessionId() }, secret, ttl);

  it('checks a token signature once, then only its expiry', () => {
    const token = fresh();
    const check = jest.spyOn(jwt, 'verify');
    const first = verifyToken(token, secret);
    const second = verifyToken(token, secret);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('refuses a remembered token once it has expired, and under another secret', () => {
    const token = fresh(60);
    const claims = verifyToken(token, secret);
    expect(codeOf(() => verifyToken(token, 'another-secret'))).toBe('invalid');
    jest.spyOn(Date, 'now').mockReturnValue(claims.exp * 1000);
    expect(codeOf(() => verifyToken(token, secret))).toBe('expired');
    expect(codeOf(() => verifyToken(token, secret))).toBe('expired');
  });

  it('never remembers a refused token', () => {
    const tampered = fresh().slice(0, -2) + 'xx';
    const check = jest.spyOn(jwt, 'verify');
    expect(codeOf(() => verifyToken(tampered, secret))).toBe('invalid');
    expect(codeOf(() => verifyToken(tampered, secret))).toBe('invalid');
    expect(check).toHaveBeenCalledTimes(2);
  });

  it('holds a bounded number of tokens, forgetting the oldest', () => {
    const own = 'bound-secret-0123456789';
    const first = signToken(subject, own);
    verifyToken(first, own);
    for (let i = 0; i < REMEMBERED_TOKENS; i++) verifyToken(signToken({ ...subject, sid: `s${i}` }, own), own);
    const check = jest.spyOn(jwt, 'verify');
    verifyToken(first, own);
    expect(check).toHaveBeenCalledTimes(1);
  });
});
