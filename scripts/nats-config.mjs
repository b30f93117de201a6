// Writes services/nats.conf, compose's nats-server config, from @bahi/contracts: one user per
// service and the gateway with the permissions of SubjectRoutes; passwords are read by
// nats-server from its environment (<NAME>_NATS_PASSWORD). Run after changing a subject's owner
// or consumers (contract-tests fail until the committed file matches):
//   npx turbo run build --filter=@bahi/contracts && node scripts/nats-config.mjs
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { composeNatsConfig } = require(path.join(ROOT, 'packages', 'contracts'));

const out = path.join(ROOT, 'services', 'nats.conf');
fs.writeFileSync(out, composeNatsConfig());
console.log(`wrote ${path.relative(ROOT, out)}`);
