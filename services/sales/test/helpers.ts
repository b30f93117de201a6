import request from 'supertest';
import { connect, type NatsConnection } from 'nats';
import { nestRequest, signToken } from '@bahi/auth';
import type { Position } from '@bahi/contracts';
import { startMongo, startNats, type MongoHandle, type NatsHandle } from '@bahi/devstack';
import { startTestService, type TestService } from '@bahi/service-kit/testing';
import { AppModule as IdentityModule } from '@bahi/identity/dist/app.module';
import { AppModule as InventoryModule } from '@bahi/inventory/dist/app.module';
import { AppModule as LedgerModule } from '@bahi/ledger/dist/app.module';
import { AppModule } from '../src/app.module';

export const SECRET = 'sales-test-secret-0123456789abcdef';

export interface Stack {
  mongo: MongoHandle;
  nats: NatsHandle;
  identity: TestService;
  inventory: TestService;
  ledger: TestService;
  sales: TestService;
  url: string;
  nc: NatsConnection;
  companyId: number;
  ask<R = any>(subject: string, data: unknown): Promise<R>;
  /** Restarts the ledger on the same database (after a test stopped it). */
  restartLedger(): Promise<void>;
  restartInventory(): Promise<void>;
  stop(): Promise<void>;
}

const base = (mongo: MongoHandle, nats: NatsHandle, service: 'identity' | 'inventory' | 'ledger' | 'sales', dbName: string) => ({
  service,
  mongoUri: mongo.uri,
  natsUrl: nats.url,
  jwtSecret: SECRET,
  dbName,
});

/**
 * The real parts: embedded MongoDB, nats-server, and identity, inventory, ledger and sales
 * in-process on free ports. A fresh company (via the platform admin) so bills have a header.
 */
export async function startSales(): Promise<Stack> {
  process.env.BAHI_DEMO = '0';
  // A given admin password is not force-changed at first login.
  process.env.BAHI_ADMIN_PASSWORD = 'admin12345';
  const [mongo, nats] = await Promise.all([startMongo(), startNats()]);
  const tag = Math.random().toString(36).slice(2, 8);
  const identity = await startTestService(IdentityModule, base(mongo, nats, 'identity', `bahi_identity_${tag}`));
  let inventory = await startTestService(InventoryModule, base(mongo, nats, 'inventory', `bahi_inventory_${tag}`));
  let ledger = await startTestService(LedgerModule, base(mongo, nats, 'ledger', `bahi_ledger_${tag}`));
  const sales = await startTestService(AppModule, base(mongo, nats, 'sales', `bahi_sales_${tag}`));
  const admin = await request(identity.url).post('/loginReact').send({ email: 'admin@bahi.local', password: 'admin12345' });
  const created = await request(identity.url)
    .post('/admin/createCompany')
    .set(auth(admin.body.token))
    .send({ cName: 'Sharma General Store', cAdd: '4 Station Road, Pune', cMob: '9822001122', mName: 'Meena', mEmail: `meena-${tag}@sharma.in` });
  if (created.status >= 300) throw new Error(`company: ${created.status} ${JSON.stringify(created.body)}`);
  const nc = await connect({ servers: nats.url });
  const stack: Stack = {
    mongo,
    nats,
    identity,
    get inventory() {
      return inventory;
    },
    get ledger() {
      return ledger;
    },
    sales,
    url: sales.url,
    nc,
    companyId: created.body.companyId,
    ask: (subject, data) => nestRequest(nc, subject, data),
    restartLedger: async () => {
      ledger = await startTestService(LedgerModule, base(mongo, nats, 'ledger', `bahi_ledger_${tag}`));
    },
    restartInventory: async () => {
      inventory = await startTestService(InventoryModule, base(mongo, nats, 'inventory', `bahi_inventory_${tag}`));
    },
    stop: async () => {
      await nc.close();
      for (const s of [sales, ledger, inventory, identity]) await s.close().catch(() => undefined);
      await nats.stop();
      await mongo.stop();
    },
  };
  return stack;
}

let uid = 500;
/** A token of a new user of `companyId`, signed like identity does. */
export function tokenFor(companyId: number, position: Position = 'staff'): string {
  uid++;
  return signToken(
    { sub: String(uid), uid, name: `${position} ${uid}`, email: `u${uid}@t.local`, position, companyId, companyName: 'Sharma General Store', sid: `sid-${uid}` },
    SECRET,
  );
}

export const auth = (t: string) => ({ Authorization: `Bearer ${t}` });

/** A supertest client bound to one user and one service. */
export function as(url: string, token: string) {
  const h = auth(token);
  return {
    get: (path: string) => request(url).get(path).set(h),
    post: (path: string, body?: object, headers: Record<string, string> = {}) => request(url).post(path).set(h).set(headers).send(body ?? {}),
    put: (path: string, body?: object) => request(url).put(path).set(h).send(body ?? {}),
    del: (path: string) => request(url).delete(path).set(h),
  };
}

/** Creates a product through inventory's public calls and sets its stock. */
export async function product(inventoryUrl: string, managerToken: string, category: number, f: Record<string, unknown> & { stock?: string }): Promise<number> {
  const { stock, ...fields } = f;
  const body = { catagory: category, brand_name: 'Acme', name: 'Thing', mrp: '100', cp: '80', unit: 'pcs', per_peice_quantity: 1, ...fields };
  const res = await request(inventoryUrl).post('/createNewProduct').set(auth(managerToken)).send(body);
  if (res.status !== 200) throw new Error(`product: ${res.status} ${JSON.stringify(res.body)}`);
  if (stock !== undefined) await editProduct(inventoryUrl, managerToken, res.body.id, { ...body, stock });
  return res.body.id;
}

export async function editProduct(inventoryUrl: string, managerToken: string, id: number, body: Record<string, unknown>) {
  const res = await request(inventoryUrl).post('/editProduct').set(auth(managerToken)).send({ ...body, product_id: id });
  if (res.status !== 200) throw new Error(`edit product: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function category(inventoryUrl: string, managerToken: string, name: string): Promise<number> {
  const res = await request(inventoryUrl).post('/catagory/add').set(auth(managerToken)).send({ name, belongs_to: null });
  if (res.status !== 200) throw new Error(`category: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function customer(ledgerUrl: string, token: string, name: string, mobile: string): Promise<number> {
  const res = await request(ledgerUrl)
    .post('/clients/addClient')
    .set(auth(token))
    .send({ mobile_no: mobile, name, address_line_1: '12 MG Road', address_line_2: '', city_or_district: 'Mumbai', state: 'MH', country: 'India', postal_code: '400001' });
  if (res.status !== 200) throw new Error(`customer: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}
