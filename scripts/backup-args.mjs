// Arguments and passphrase shared by `npm run backup` and `npm run restore`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function fail(msg) {
  process.stderr.write(`\n✖ ${msg}\n\n`);
  process.exit(1);
}

/** `--to DIR` (backup), `--passphrase-file FILE`, and for restore one FILE. */
export function backupArgs(argv, { to = false, file = false }, usage) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--(to|passphrase-file)(?:=(.*))?$/.exec(a);
    if (m && (m[1] !== 'to' || to)) {
      const v = m[2] ?? argv[++i];
      if (!v) fail(`--${m[1]} needs a value. Usage: ${usage}`);
      out[m[1] === 'to' ? 'to' : 'passphraseFile'] = v;
    } else if (file && !a.startsWith('--') && !out.file) out.file = a;
    else fail(`Unknown argument "${a}". Usage: ${usage}`);
  }
  if (file && !out.file) fail(`Name the backup file. Usage: ${usage}`);
  return out;
}

/** --passphrase-file (its first line) or BAHI_BACKUP_PASSPHRASE; undefined for none. */
export function passphrase(args) {
  if (args.passphraseFile) {
    if (!fs.existsSync(args.passphraseFile)) fail(`There is no passphrase file ${args.passphraseFile}.`);
    const p = fs.readFileSync(args.passphraseFile, 'utf8').split(/\r?\n/)[0];
    if (!p) fail(`The passphrase file ${args.passphraseFile} is empty.`);
    return p;
  }
  return process.env.BAHI_BACKUP_PASSPHRASE || undefined;
}
