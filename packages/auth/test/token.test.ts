import jwt from 'jsonwebtoken';
import { AuthError, bearerToken, newSessionId, signToken, verifyToken } from '../src';
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
