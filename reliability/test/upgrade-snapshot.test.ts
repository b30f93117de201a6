// Upgrades (issue 30): the snapshot an earlier release made (reliability/fixtures, README
// "Upgrades") is restored into a scratch folder and the current code started on it. Every service
// must bring the data to its version, the invariant auditor must find nothing, the reports must
// rebuild from the owners and agree with them, the old bills must print and the logins must work.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { restoreBackup } from '@bahi/devstack';
import { MongoClient } from 'mongodb';
import { Api } from '../src/api';
import { audit } from '../src/audit';
import { auditReports } from '../src/audit-reports';
import { documentsPort, getDocument, startDocuments, type DocumentsProc } from '../src/documents';
import { ROOT, Rig, SERVICES, until } from '../src/rig';
import { SNAPSHOT_FACTS, SNAPSHOT_FILE, type SnapshotFacts } from '../src/snapshot';

const facts = JSON.parse(fs.readFileSync(SNAPSHOT_FACTS, 'utf8')) as SnapshotFacts;
/** Every service with a database of its own, documents included (it ran on none when the snapshot was made). */
const WITH_DATA = [...SERVICES, 'documents'];

let scratch: string;
let rig: Rig;
let docs: DocumentsProc;
let client: MongoClient;

beforeAll(async () => {
  // Kept small on purpose: compressed, well under 1 MB.
  expect(fs.statSync(SNAPSHOT_FILE).size).toBeLessThan(1024 * 1024);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-upgrade-'));
  // `npm run restore`'s code, into a folder of its own.
  const { manifest } = await restoreBackup({ file: SNAPSHOT_FILE, dataDir: path.join(scratch, 'data') });
  expect(manifest.version).toBe(facts.version);
  const docPort = await documentsPort();
  // BAHI_DEMO off: the demo company is in the snapshot already; nothing may be seeded over it.
  rig = await Rig.start({ seedDir: path.join(scratch, 'data'), env: { BAHI_DEMO: '0', BAHI_ADMIN_PASSWORD: 'not-the-snapshot-password' }, gatewayEnv: { DOCUMENTS_URL: `http://127.0.0.1:${docPort}` } });
  docs = await startDocuments(rig, docPort);
  client = await MongoClient.connect(rig.mongoUri);
}, 300_000);

afterAll(async () => {
  await client?.close();
  await docs?.stop();
  await rig?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the current code on the snapshot of release ' + facts.version, () => {
  it("every service brought the data to its code's version, each migration recorded once", async () => {
    for (const s of WITH_DATA) {
      const { migrations } = (await import(path.join(ROOT, 'services', s, 'dist', 'migrations'))) as { migrations: { version: number; name: string }[] };
      const latest = Math.max(0, ...migrations.map((m) => m.version));
      const doc = await client.db(`bahi_${s}`).collection<{ _id: string; version: number; applied: { version: number }[] }>('migrations').findOne({ _id: 'version' });
      expect({ service: s, version: doc?.version }).toEqual({ service: s, version: latest });
      expect(latest).toBeGreaterThanOrEqual(facts.dataVersions[s] ?? 0);
      // Each version applied once, in order: the ones of the snapshot's release and any newer ones.
      expect(doc!.applied.map((a) => a.version)).toEqual(migrations.map((m) => m.version));
    }
  });

  it('the invariant auditor finds nothing', async () => {
    const report = await audit(rig.mongoUri);
    expect(report.violations).toEqual([]);
    expect(report.inFlight).toEqual([]);
    expect(report.companies).toBeGreaterThanOrEqual(2);
    expect(report.sales).toBe(facts.companies.reduce((n, c) => n + c.bills.length, 0));
  });

  it('the reports rebuild from the owners (no event history came with the data) and agree with them', async () => {
    const agreed = await until(
      'the reports to agree with the owners',
      async () => {
        const r = await auditReports(rig.mongoUri);
        return r.mismatches.length === 0 && r.compared > 0 && r;
      },
      180_000,
    );
    expect(agreed.mismatches).toEqual([]);
  }, 200_000);

  it('every login of the snapshot works (and a wrong password still does not)', async () => {
    const admin = await Api.login(rig.gatewayUrl, facts.admin.email, facts.admin.password);
    expect((await admin.get('/getUserData')).body.user.position).toBe('admin');
    for (const c of facts.companies) {
      for (const [position, who] of [['manager', c.manager], ['staff', c.staff]] as const) {
        if (!who) continue;
        const api = await Api.login(rig.gatewayUrl, who.email, who.password);
        const me = (await api.get('/getUserData')).body.user;
        expect({ position: me.position, company: me.companyName }).toEqual({ position, company: c.name });
      }
      expect((await new Api(rig.gatewayUrl).post('/loginReact', { email: c.manager.email, password: `${c.manager.password}x` })).status).toBe(401);
    }
  });

  it("the old bills print: each one's PDF carries its number, a cancelled one its reason", async () => {
    for (const c of facts.companies) {
      const staffOrManager = await Api.login(rig.gatewayUrl, (c.staff ?? c.manager).email, (c.staff ?? c.manager).password);
      for (const bill of c.bills) {
        const pdf = await getDocument(staffOrManager, `/documents/bill/${bill.saleId}`);
        expect({ company: c.name, bill: bill.saleId, status: pdf.status }).toEqual({ company: c.name, bill: bill.saleId, status: 200 });
        expect(pdf.contentType).toMatch(/^application\/pdf/);
        expect(pdf.text).toContain(c.tax_mode === 'gst' ? bill.number : `Bill No: ${bill.number}`);
        // The cancelled bill's line under its stamp (the stamp's letters come out of the PDF scattered).
        if (bill.cancelReason) expect(pdf.text).toMatch(new RegExp(`Cancelled on \\d\\d-\\d\\d-\\d{4}: ${bill.cancelReason}`));
        else expect(pdf.text).not.toContain('Cancelled on');
      }
    }
  }, 300_000);
});
