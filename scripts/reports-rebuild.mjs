// `npm run reports:rebuild`: rebuilds the reports read model from zero (services/reports/src/rebuild-cli.ts);
// `npm run reports:replay-dead` (argument `replay-dead`): tries the dead letters again (src/replay-dead-cli.ts).
// Where things are: MONGODB_URI / NATS_URL (+ NATS_USER/NATS_PASSWORD) / BAHI_JWT_SECRET when set;
// otherwise the servers of `npm start` on this machine with the logins it keeps in ./data
// (BAHI_DATA_DIR for another folder; BAHI_MONGO_PORT / BAHI_NATS_PORT when they moved).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.resolve(process.env.BAHI_DATA_DIR ?? path.join(ROOT, 'data'));
const cli = path.join(ROOT, 'services', 'reports', 'dist', process.argv[2] === 'replay-dead' ? 'replay-dead-cli.js' : 'rebuild-cli.js');
const fail = (m) => {
  process.stderr.write(`\n✖ ${m}\n\n`);
  process.exit(1);
};
const readJson = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null);

if (!fs.existsSync(cli)) fail('The reports service is not built: run `npx turbo run build --filter=@bahi/reports` first.');
const env = { ...process.env };
if (!env.MONGODB_URI) {
  const creds = readJson(path.join(DATA, 'mongo-credentials.json'));
  const login = creds?.services?.reports;
  if (!login) fail(`No MONGODB_URI and no reports login in ${path.join(DATA, 'mongo-credentials.json')}: start Bahi once with \`npm start\`, or set MONGODB_URI.`);
  env.MONGODB_URI = `mongodb://${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}@127.0.0.1:${process.env.BAHI_MONGO_PORT ?? 27017}/?authSource=admin`;
}
if (!env.NATS_URL) {
  env.NATS_URL = `nats://127.0.0.1:${process.env.BAHI_NATS_PORT ?? 4222}`;
  const pw = readJson(path.join(DATA, 'nats-passwords.json'))?.reports;
  if (pw && !env.NATS_PASSWORD) Object.assign(env, { NATS_USER: 'reports', NATS_PASSWORD: pw });
}
if (!env.BAHI_JWT_SECRET) {
  const f = path.join(DATA, 'jwt-secret');
  if (!fs.existsSync(f)) fail('No BAHI_JWT_SECRET and no ./data/jwt-secret: start Bahi once with `npm start`, or set it.');
  env.BAHI_JWT_SECRET = fs.readFileSync(f, 'utf8').trim();
}
const r = spawnSync(process.execPath, [cli], { env, stdio: 'inherit' });
process.exit(r.status ?? 1);
