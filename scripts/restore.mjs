// `npm run restore -- FILE [--passphrase-file FILE]`: puts a backup back into ./data (BAHI_DATA_DIR).
// Refused while Bahi runs on that folder. The backup is unpacked and checked first (a wrong
// passphrase changes nothing); then ./data is moved aside to ./data.before-restore-<YYYYMMDD-HHmm>
// (never deleted) and the backup's data takes its place. The next `npm start` runs on it.
import { createRequire } from 'node:module';
import path from 'node:path';
import { backupArgs, passphrase, ROOT } from './backup-args.mjs';

const require = createRequire(import.meta.url);

async function main() {
  const args = backupArgs(process.argv.slice(2), { file: true }, 'npm run restore -- FILE [--passphrase-file FILE]');
  const { restoreBackup } = require(path.join(ROOT, 'packages', 'devstack'));
  const dataDir = path.resolve(process.env.BAHI_DATA_DIR || path.join(ROOT, 'data'));
  const started = Date.now();
  const r = await restoreBackup({ file: path.resolve(args.file), dataDir, passphrase: passphrase(args) });
  const docs = Object.values(r.manifest.counts).reduce((a, b) => a + b, 0);
  process.stdout.write(
    `Restored ${path.basename(args.file)} (taken ${r.manifest.createdAt}, ${docs} documents) into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
  );
  if (r.movedTo) process.stdout.write(`The data that was there is kept in ${r.movedTo}.\n`);
  process.stdout.write(
    'Start Bahi with `npm start`. Reports catch up from the owners and the event streams by themselves.\n',
  );
}

main().catch((err) => {
  process.stderr.write(`\n✖ ${err?.message ?? err}\n\n`);
  process.exit(1);
});
