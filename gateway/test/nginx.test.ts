import fs from 'node:fs';
import path from 'node:path';
import { helmetOptions, nginxSecurityHeaders, NGINX_REMOTE_ORIGINS, securityHeaders } from '../src/security-headers';

// The shell's nginx serves the page browsers open: it must carry the same CSP and frame rules
// as the gateway, and tell the gateway the client's own address, not a forwarded claim.
const shellDir = path.resolve(__dirname, '../../shell');
const read = (rel: string) => fs.readFileSync(path.join(shellDir, rel), 'utf8');

describe("the shell's nginx", () => {
  it("adds exactly the gateway's security headers (regenerate: node gateway/scripts/nginx-security-headers.js)", () => {
    expect(read('nginx/security-headers.inc.template')).toBe(nginxSecurityHeaders());
    const lines = read('nginx/security-headers.inc.template').split('\n').filter((l) => l.startsWith('add_header'));
    const expected = securityHeaders(helmetOptions([NGINX_REMOTE_ORIGINS])).set;
    expect(lines).toHaveLength(expected.length);
    for (const [name, value] of expected) expect(lines).toContain(`add_header ${name} "${value}" always;`);
    expect(lines.join('\n')).toMatch(/frame-ancestors 'none'/);
    expect(lines).toContain('add_header X-Frame-Options "DENY" always;');
  });

  it('includes them wherever it serves the shell itself, not where the gateway answers', () => {
    const conf = read('nginx/default.conf.template');
    const locations = [...conf.matchAll(/location ([^{]+)\{([^}]*)\}/g)].map((m) => ({ where: m[1].trim(), body: m[2] }));
    const include = 'include /etc/nginx/conf.d/security-headers.inc;';
    const own = locations.filter((l) => !l.body.includes('proxy_pass') && !l.where.includes('/healthz'));
    expect(own.length).toBeGreaterThanOrEqual(2);
    // add_header in a location drops the server's, so each location includes the set itself.
    for (const l of own) expect(l.body).toContain(include);
    const proxied = locations.filter((l) => l.body.includes('proxy_pass'));
    expect(proxied).toHaveLength(1);
    // The gateway sets the same headers on its answers: nginx must not add a second copy.
    expect(proxied[0].body).not.toContain('add_header');
    expect(conf.split(/location /)[0]).not.toContain('add_header');
    expect(conf).toMatch(/server_tokens off;/);
  });

  it("sets X-Forwarded-For to the client's address instead of appending to what the client sent", () => {
    const conf = read('nginx/default.conf.template');
    expect(conf).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(conf).not.toContain('$proxy_add_x_forwarded_for');
  });

  it('is what the shell image installs', () => {
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain('COPY shell/nginx/default.conf.template /etc/nginx/templates/default.conf.template');
    expect(dockerfile).toContain('COPY shell/nginx/security-headers.inc.template /etc/nginx/templates/security-headers.inc.template');
    expect(dockerfile).not.toMatch(/<<'CONF'/);
  });
});
