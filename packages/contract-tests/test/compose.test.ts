import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { exists, read, ROOT, sourceFiles, workspacesIn } from './repo';

// The compose-spec JSON schema as dclint ships it, checked with the ajv 8 dclint depends on
// (the root ajv is 6, which does not read draft-07 `$id` schemas the same way).
const dclintDir = path.dirname(require.resolve('dclint/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Ajv = require(require.resolve('ajv', { paths: [dclintDir] })).default;
const schema = JSON.parse(fs.readFileSync(path.join(dclintDir, 'schemas', 'compose.schema.json'), 'utf8'));

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  container_name?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
}

// Committed files only: work in progress in the checkout is not yet the product.
const trackedFiles = new Set(execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n'));
const tracked = (f: string) => trackedFiles.has(f);
const committed = (f: string) => execFileSync('git', ['show', `HEAD:${f}`], { cwd: ROOT, encoding: 'utf8' });

const text = read('docker-compose.yml');
const compose = parse(text, { merge: true }) as Compose;
const services = workspacesIn('services');
const remotes = workspacesIn('frontends');

describe('docker-compose.yml', () => {
  it('is valid against the compose-spec schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, validateSchema: false });
    const validate = ajv.compile(schema);
    // Compose resolves `<<` merge keys before it applies the schema.
    const ok = validate(compose);
    expect(ok ? [] : validate.errors).toEqual([]);
  });

  it('has a container per service, with a MongoDB replica set and volume where it keeps data', () => {
    for (const s of services) {
      const block = compose.services[s.name];
      expect(block?.build?.dockerfile).toBe(`${s.dir}/Dockerfile`);
      const uri = block!.environment?.MONGODB_URI;
      if (s.name === 'documents') {
        // documents keeps nothing.
        expect(uri).toBeUndefined();
        continue;
      }
      expect(uri).toMatch(new RegExp(`^mongodb://mongo-${s.name}:27017/bahi_${s.name}\\?replicaSet=rs0`));
      const mongo = compose.services[`mongo-${s.name}`]!;
      expect(mongo.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
      expect(mongo.volumes).toEqual([`mongo-${s.name}:/data/db`]);
      expect(compose.volumes).toHaveProperty(`mongo-${s.name}`);
    }
  });

  it('runs NATS with JetStream on a volume', () => {
    const nats = compose.services.nats!;
    expect(nats.command).toContain('-js');
    expect(nats.volumes?.[0]).toMatch(/^nats-data:/);
    expect(compose.volumes).toHaveProperty('nats-data');
  });

  it('gives the gateway every service URL and every remote its own container in /remotes.json', () => {
    const gw = compose.services.gateway!;
    for (const s of services)
      expect(gw.environment?.[`${s.name.toUpperCase()}_URL`]).toBe(
        `http://${s.name}:${3001 + ['identity', 'inventory', 'sales', 'ledger', 'documents'].indexOf(s.name)}`,
      );
    for (const r of remotes) {
      const block = compose.services[`remote-${r.name}`];
      expect(block?.build?.dockerfile).toBe(`${r.dir}/Dockerfile`);
      const pub = `PUBLIC_${r.name.toUpperCase()}_URL`;
      // The address the gateway lists and the address the remote rewrites its public path to agree.
      expect(gw.environment?.[`REMOTE_${r.name.toUpperCase()}_URL`]).toMatch(
        new RegExp(`^\\$\\{${pub}:-[^}]+\\}/remotes/${r.name}/mf-manifest.json$`),
      );
      expect(block!.environment?.PUBLIC_URL).toMatch(new RegExp(`^\\$\\{${pub}:-`));
    }
    expect(compose.services.shell?.build?.dockerfile).toBe('shell/Dockerfile');
    expect(compose.services.shell?.environment?.GATEWAY_URL).toBe('http://gateway:8080');
  });

  it('has a healthcheck on every container and nothing that stops --scale', () => {
    for (const [name, s] of Object.entries(compose.services)) {
      expect([name, s.healthcheck?.test?.length ?? 0]).not.toEqual([name, 0]);
      expect([name, s.container_name]).toEqual([name, undefined]);
    }
    for (const s of services) expect([s.name, compose.services[s.name]!.ports]).toEqual([s.name, undefined]);
  });

  it('builds only from Dockerfiles that exist', () => {
    for (const s of Object.values(compose.services))
      if (s.build) expect([s.build.dockerfile, exists(s.build.dockerfile)]).toEqual([s.build.dockerfile, true]);
  });

  it('documents every environment variable the code and the compose file use', () => {
    const readme = read('README.md');
    const files = [
      ...services.flatMap((s) => sourceFiles(`${s.dir}/src`)),
      ...sourceFiles('packages/service-kit/src'),
      ...sourceFiles('packages/auth/src'),
      ...sourceFiles('gateway/src'),
    ].filter(tracked);
    const names = new Set<string>();
    for (const f of files) {
      for (const m of committed(f).matchAll(/env(?:\.|\[['"]|, ['"])([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
    }
    for (const s of Object.values(compose.services)) for (const k of Object.keys(s.environment ?? {})) names.add(k);
    for (const m of text.matchAll(/\$\{([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
    const documented = (n: string) =>
      readme.includes(`\`${n}\``) ||
      (/^REMOTE_[A-Z]+_URL$/.test(n) && readme.includes('`REMOTE_<NAME>_URL`')) ||
      (/^PUBLIC_[A-Z]+_URL$/.test(n) && readme.includes('`PUBLIC_<NAME>_URL`')) ||
      (/^[A-Z]+_PORT$/.test(n) && readme.includes('`<NAME>_PORT`')) ||
      (/^[A-Z]+_URL$/.test(n) && readme.includes('`<NAME>_URL`'));
    expect([...names].filter((n) => !documented(n)).sort()).toEqual([]);
  });
});

/** Every image: the workspace it builds and the Dockerfile that builds it. */
const images = [
  ...services.map((s) => ({ ...s, entry: `${s.dir}/dist/main.js` })),
  { name: 'gateway', dir: 'gateway', pkg: '@bahi/gateway', entry: 'gateway/dist/main.js' },
  { name: 'shell', dir: 'shell', pkg: '@bahi/shell', entry: 'shell/dist/index.html' },
  ...remotes.map((r) => ({ ...r, entry: `${r.dir}/dist/mf-manifest.json` })),
];

/** Instructions of the last stage (the image that runs). */
function lastStage(dockerfile: string): string {
  const stages = dockerfile.split(/^FROM /m);
  return stages[stages.length - 1]!;
}

describe('Dockerfiles', () => {
  it.each(images)(
    '$dir/Dockerfile: multi-stage, pruned to $pkg, non-root, with a healthcheck',
    ({ dir, pkg, entry }) => {
      const file = read(`${dir}/Dockerfile`);
      expect(file.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(3);
      expect(file).toContain(`turbo@2.11.9 prune ${pkg} --docker`);
      expect(file).toContain(`--filter=${pkg}...`);
      const run = lastStage(file);
      const user = /^USER (\S+)/m.exec(run)?.[1];
      expect(user).toBeDefined();
      expect(['root', '0']).not.toContain(user);
      expect(run).toMatch(/^HEALTHCHECK /m);
      // What the image starts or serves is what the build produces.
      expect(exists(entry)).toBe(true);
      const cmd = /^CMD \["node", "([^"]+)"\]/m.exec(run)?.[1];
      if (entry.endsWith('main.js')) expect(cmd).toBe(entry);
      else expect(run).toContain(`/src/${dir}/dist `);
    },
  );

  it('the documents image carries Chromium and the fonts', () => {
    const run = lastStage(read('services/documents/Dockerfile'));
    expect(run).toMatch(/apt-get install[^\n]*chromium[^\n]*fonts-noto-core/);
    expect(run).toContain('CHROME_PATH=/usr/bin/chromium');
  });

  it('.dockerignore keeps local installs and builds out of the context', () => {
    const ignore = read('.dockerignore').split('\n');
    for (const p of ['**/node_modules', '**/dist', 'data', '.env']) expect(ignore).toContain(p);
  });

  // The part of each image build that runs without a Docker engine: turbo prune of its workspace.
  it.each(images)('turbo prune $pkg gives a self-contained workspace', ({ dir, pkg }) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-prune-'));
    try {
      execFileSync(path.join(ROOT, 'node_modules', '.bin', 'turbo'), ['prune', pkg, '--docker', '--out-dir', out], {
        cwd: ROOT,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        stdio: 'pipe',
      });
      expect(fs.existsSync(path.join(out, 'json', dir, 'package.json'))).toBe(true);
      expect(fs.existsSync(path.join(out, 'json', 'package-lock.json'))).toBe(true);
      const deps = Object.keys(
        JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).dependencies ?? {},
      ).filter((d) => d.startsWith('@bahi/'));
      const lock = JSON.parse(fs.readFileSync(path.join(out, 'json', 'package-lock.json'), 'utf8'));
      for (const d of deps) expect(lock.packages).toHaveProperty([`node_modules/${d}`]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
