// Writes shell/nginx/security-headers.inc.template from the gateway's helmet configuration
// (build the gateway first). gateway/test/nginx.test.ts checks the file is current.
const fs = require('node:fs');
const path = require('node:path');
const { nginxSecurityHeaders } = require('../dist/security-headers');

const file = path.resolve(__dirname, '../../shell/nginx/security-headers.inc.template');
fs.writeFileSync(file, nginxSecurityHeaders());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
