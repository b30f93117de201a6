// `npm run backup [-- --to DIR] [-- --passphrase-file FILE]`: one verified backup of ./data
// (BAHI_DATA_DIR), whether Bahi is running or stopped, into DIR (default BAHI_BACKUP_DIR or
// ./backups); encrypted when BAHI_BACKUP_PASSPHRASE or --passphrase-file gives a passphrase;
// copied to BAHI_BACKUP_COPY_DIR when set. Exit code 1 when it could not be made or verified.
import { createRequire } from 'node:module';
import path from 'node:path';
import { backupArgs, passphrase, ROOT } from './backup-args.mjs';

const require = createRequire(import.meta.url);

async function main() {
  const args = backupArgs(
    process.argv.slice(2),
    { to: true },
    'npm run backup [-- --to DIR] [-- --passphrase-file FILE]',
  );
  const { createBackup } = require(path.join(ROOT, 'packages', 'devstack'));
  const dataDir = path.resolve(process.env.BAHI_DATA_DIR || path.join(ROOT, 'data'));
  const outDir = path.resolve(args.to || process.env.BAHI_BACKUP_DIR || path.join(ROOT, 'backups'));
  const started = Date.now();
  const r = await createBackup({
    dataDir,
    outDir,
    rootDir: ROOT,
    passphrase: passphrase(args),
    copyDir: process.env.BAHI_BACKUP_COPY_DIR || undefined,
  });
  const mb = (r.size / 1048576).toFixed(1);
  const v = r.verification;
  process.stdout.write(
    `${r.file}\n  ${mb} MB, ${r.encrypted ? 'encrypted' : 'not encrypted (set BAHI_BACKUP_PASSPHRASE to encrypt)'}, made and verified in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  process.stdout.write(
    `  ${Object.keys(r.manifest.counts).length} collections, ${Object.values(r.manifest.counts).reduce((a, b) => a + b, 0)} documents\n`,
  );
  if (r.copied === true) process.stdout.write(`  copied to ${process.env.BAHI_BACKUP_COPY_DIR}\n`);
  if (r.copied === false) process.stdout.write(`  ✖ ${r.copyError}\n`);
  if (v?.good)
    process.stdout.write('  ✔ good: restored into a scratch folder, every count matched, every invariant holds\n');
  else {
    process.stderr.write(`  ✖ NOT GOOD:\n${(v?.problems ?? ['not verified']).map((p) => `    - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
}

main().catch((err) => {
  process.stderr.write(`\n✖ ${err?.message ?? err}\n\n`);
  process.exit(1);
});
