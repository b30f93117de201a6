import { loadConfig } from '../src/config';

const LONG = 'gateway-config-test-secret-0123456789';

describe('gateway configuration', () => {
  it('refuses a missing or short BAHI_JWT_SECRET at start, saying how long it must be', () => {
    expect(() => loadConfig({}, [], '/tmp')).toThrow(/BAHI_JWT_SECRET is not set/);
    expect(() => loadConfig({ BAHI_JWT_SECRET: 'changeme' }, [], '/tmp')).toThrow(/BAHI_JWT_SECRET is 8 characters long; use at least 32/);
    expect(loadConfig({ BAHI_JWT_SECRET: LONG }, [], '/tmp').jwtSecret).toBe(LONG);
  });

  it('listens on every interface unless HOST says otherwise: shop PCs reach the gateway', () => {
    expect(loadConfig({ BAHI_JWT_SECRET: LONG }, [], '/tmp').host).toBe('0.0.0.0');
    expect(loadConfig({ BAHI_JWT_SECRET: LONG, HOST: '127.0.0.1' }, [], '/tmp').host).toBe('127.0.0.1');
  });
});
