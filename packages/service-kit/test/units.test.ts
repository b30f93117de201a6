import mongoose, { Schema } from 'mongoose';
import { add, castForInsert, div, fromPaise, isMoney, loadServiceConfig, money, mul, round1, round2, sub, toMoneyString, toNumber, toPaise, uriNamesDatabase } from '../src';

describe('money', () => {
  it('adds and multiplies exactly', () => {
    expect(toMoneyString(add(0.1, 0.2))).toBe('0.3');
    expect(toMoneyString(mul('19.99', 3))).toBe('59.97');
    expect(toNumber(sub(100, '33.33', '33.33'))).toBe(33.34);
    expect(toMoneyString(div(10, 4))).toBe('2.5');
  });
  it('rounds half up only when asked', () => {
    expect(toMoneyString(round2('2.345'))).toBe('2.35');
    expect(toMoneyString(round2('-2.345'))).toBe('-2.35');
    expect(toMoneyString(round1('7.25'))).toBe('7.3');
    expect(toMoneyString(mul('1.18', '100.005'))).toBe('118.0059');
  });
  it('parses only plain decimals', () => {
    expect(toNumber(money(' 12.50 '))).toBe(12.5);
    for (const bad of ['', 'abc', '1e5', '12abc', NaN, Infinity, null, undefined, {}]) expect(isMoney(bad)).toBe(false);
  });
  it('converts to and from integer paise', () => {
    expect(toPaise('12.345')).toBe(1235);
    expect(toMoneyString(fromPaise(1999))).toBe('19.99');
  });
});

const S = 'unit-test-secret-of-at-least-32-characters';

describe('config', () => {
  it('reads ports, URIs and the database name from env', () => {
    const cfg = loadServiceConfig('identity', { BAHI_JWT_SECRET: S, IDENTITY_PORT: '0', MONGODB_URI: 'mongodb://h:1', NATS_URL: 'nats://n:2' });
    expect(cfg).toMatchObject({ port: 0, dbName: 'bahi_identity', natsUrl: 'nats://n:2', mongoUri: 'mongodb://h:1' });
    expect(loadServiceConfig('sales', { BAHI_JWT_SECRET: S })).toMatchObject({ port: 3003, dbName: 'bahi_sales' });
    expect(loadServiceConfig('sales', { BAHI_JWT_SECRET: S, MONGODB_URI: 'mongodb://h:1/shop?x=1' }).dbName).toBeUndefined();
  });
  it('fails clearly without a secret or with a bad port', () => {
    expect(() => loadServiceConfig('ledger', {})).toThrow(/BAHI_JWT_SECRET/);
    expect(() => loadServiceConfig('ledger', { BAHI_JWT_SECRET: S, LEDGER_PORT: 'abc' })).toThrow(/LEDGER_PORT/);
  });
  it('refuses a JWT secret shorter than 32 characters, saying how long it must be', () => {
    expect(() => loadServiceConfig('ledger', { BAHI_JWT_SECRET: 'short-secret' })).toThrow(/BAHI_JWT_SECRET is 12 characters long; use at least 32/);
    expect(() => loadServiceConfig('ledger', { BAHI_JWT_SECRET: 'x'.repeat(31) })).toThrow(/at least 32/);
    expect(loadServiceConfig('ledger', { BAHI_JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });
  it('listens on loopback unless <NAME>_HOST says otherwise', () => {
    expect(loadServiceConfig('sales', { BAHI_JWT_SECRET: S }).host).toBe('127.0.0.1');
    // HOST is the gateway's: a shell that sets it for npm start must not open the services.
    expect(loadServiceConfig('sales', { BAHI_JWT_SECRET: S, HOST: '0.0.0.0' }).host).toBe('127.0.0.1');
    expect(loadServiceConfig('sales', { BAHI_JWT_SECRET: S, SALES_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadServiceConfig('ledger', { BAHI_JWT_SECRET: S, SALES_HOST: '0.0.0.0' }).host).toBe('127.0.0.1');
  });
  it('tells whether a URI names a database', () => {
    expect(uriNamesDatabase('mongodb://a:1')).toBe(false);
    expect(uriNamesDatabase('mongodb://a:1/')).toBe(false);
    expect(uriNamesDatabase('mongodb://a:1,b:2/db?replicaSet=x')).toBe(true);
  });
});

describe('castForInsert', () => {
  const schema = new Schema(
    { companyId: { type: Number, required: true }, officer: { type: String, default: null }, note: { type: String, default: '' }, lines: [new Schema({ qty: Number, unit: { type: String, default: 'pcs' } }, { _id: false })], at: Date },
    { timestamps: true },
  );
  const Thing = mongoose.model('CastThing', schema);

  it('stores what create would: defaults, cast values, nulls kept, unknown fields dropped', () => {
    const row = castForInsert(Thing as never, { companyId: '7', officer: null, lines: [{ qty: '2' }], at: '2026-01-02T00:00:00Z', stray: 1 });
    expect(row).toMatchObject({ companyId: 7, officer: null, note: '', lines: [{ qty: 2, unit: 'pcs' }], at: new Date('2026-01-02T00:00:00Z') });
    expect(row._id).toBeDefined();
    expect(row).not.toHaveProperty('stray');
  });

  it('refuses a value of the wrong type, like create', () => {
    expect(() => castForInsert(Thing as never, { companyId: 'seven' })).toThrow(/companyId/);
  });
});
