// `npm run snapshot:make -w @bahi/reliability` (after `npm run build`): makes the upgrade snapshot
// with this release and writes it to reliability/fixtures (README "Upgrades": run it at each
// release and commit the two files). The whole stack runs on a scratch folder with the demo
// company; snapshot.ts makes the business of a simple and a GST company through the gateway;
// devstack's `npm run backup` code then packs and verifies the folder (auditor included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackup } from '@bahi/devstack';
import { MongoClient } from 'mongodb';
import { ACCOUNTS } from './api';
import { ROOT, Rig, SERVICES } from './rig';
import { FIXTURES, makeSnapshotBusiness, SNAPSHOT_FACTS, SNAPSHOT_FILE, type SnapshotFacts } from './snapshot';

async function main() {
  const rig = await Rig.start({ env: { BAHI_ADMIN_PASSWORD: ACCOUNTS.admin.password } });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-snapshot-'));
  try {
    const companies = await makeSnapshotBusiness(rig.gatewayUrl);
    const client = await MongoClient.connect(rig.mongoUri);
    const dataVersions: Record<string, number> = {};
    try {
      for (const s of SERVICES) {
        const v = await client.db(`bahi_${s}`).collection<{ _id: string; version: number }>('migrations').findOne({ _id: 'version' });
        dataVersions[s] = v?.version ?? 0;
      }
    } finally {
      await client.close();
    }
    // Online, as `npm run backup` takes it while Bahi runs: one consistent point of every database.
    const b = await createBackup({ dataDir: rig.dataDir, outDir: out, rootDir: ROOT, mongoUri: rig.mongoUri });
    if (!b.verification?.good) throw new Error(`The snapshot's backup is not good: ${b.verification?.problems.join(' ')}`);
    fs.mkdirSync(FIXTURES, { recursive: true });
    fs.copyFileSync(b.file, SNAPSHOT_FILE);
    const facts: SnapshotFacts = {
      version: b.manifest.version,
      madeAt: b.manifest.createdAt,
      admin: ACCOUNTS.admin,
      companies,
      dataVersions,
    };
    fs.writeFileSync(SNAPSHOT_FACTS, JSON.stringify(facts, null, 2) + '\n');
    const docs = Object.values(b.manifest.counts).reduce((a, n) => a + n, 0);
    console.log(`${path.relative(ROOT, SNAPSHOT_FILE)}: ${(fs.statSync(SNAPSHOT_FILE).size / 1024).toFixed(0)} KB, ${docs} documents, release ${facts.version}; ${companies.map((c) => `${c.name} (${c.tax_mode}): ${c.bills.length} bills`).join('; ')}`);
  } finally {
    await rig.stop();
    fs.rmSync(out, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
