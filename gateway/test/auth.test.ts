import { checkBearer, MESSAGES, rememberVerified, type Claims, type TokenChecker } from '../src/auth';

function counting(claims: Claims, revoked = () => false) {
  const calls: string[] = [];
  const checker: TokenChecker = {
    verify: (t) => {
      calls.push(t);
      if (t.startsWith('bad')) throw new Error('invalid signature');
      return claims;
    },
    isRevoked: revoked,
    revokeLocally: () => undefined,
  };
  return { checker, calls };
}

describe('remembered token checks', () => {
  afterEach(() => jest.restoreAllMocks());
  const now = 1_800_000_000_000;

  it('checks a token signature once, then only its expiry', () => {
    jest.spyOn(Date, 'now').mockReturnValue(now);
    const { checker, calls } = counting({ sid: 's', exp: now / 1000 + 60 });
    const remembered = rememberVerified(checker);
    expect(remembered.verify('a.b.c')).toEqual({ sid: 's', exp: now / 1000 + 60 });
    expect(remembered.verify('a.b.c')).toEqual({ sid: 's', exp: now / 1000 + 60 });
    expect(calls).toEqual(['a.b.c']);
  });

  it('refuses a remembered token once it has expired, with the expiry message', () => {
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    const { checker } = counting({ sid: 's', exp: now / 1000 + 60 });
    const remembered = rememberVerified(checker);
    expect(checkBearer(remembered, 'Bearer a.b.c')).toHaveProperty('claims');
    clock.mockReturnValue(now + 60_000);
    expect(checkBearer(remembered, 'Bearer a.b.c')).toEqual({ message: MESSAGES.expired, challenge: 'Bearer error="invalid_token"' });
  });

  it('never remembers a refused token', () => {
    const { checker, calls } = counting({ sid: 's', exp: Date.now() / 1000 + 60 });
    const remembered = rememberVerified(checker);
    expect(() => remembered.verify('bad.b.c')).toThrow();
    expect(() => remembered.verify('bad.b.c')).toThrow();
    expect(calls).toEqual(['bad.b.c', 'bad.b.c']);
  });

  it('still asks about revocation on every check', () => {
    let revoked = false;
    const { checker } = counting({ sid: 's', exp: Date.now() / 1000 + 60 }, () => revoked);
    const remembered = rememberVerified(checker);
    expect(checkBearer(remembered, 'Bearer a.b.c')).toHaveProperty('claims');
    revoked = true;
    expect(checkBearer(remembered, 'Bearer a.b.c')).toEqual({ message: MESSAGES.revoked, challenge: 'Bearer error="invalid_token"' });
  });

  it('holds a bounded number of tokens', () => {
    const { checker, calls } = counting({ sid: 's', exp: Date.now() / 1000 + 60 });
    const remembered = rememberVerified(checker, 2);
    for (const t of ['a.1.x', 'a.2.x', 'a.3.x', 'a.1.x']) remembered.verify(t);
    expect(calls).toEqual(['a.1.x', 'a.2.x', 'a.3.x', 'a.1.x']);
  });
});
