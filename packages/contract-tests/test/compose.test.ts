import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DefaultPorts, type ServiceName } from '@bahi/contracts';
import { parse } from 'yaml';
import { exists, read, ROOT, sourceFiles, workspacesIn } from './repo';

// The compose-spec JSON schema as dclint ships it, checked with the ajv 8 dclint depends on
// (the root ajv is 6, which does not read draft-07 `$id` schemas the same way).
const dclintDir = path.dirname(require.resolve('dclint/package.json'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Ajv = require(require.resolve('ajv', { paths: [dclintDir] })).default;
const schema = JSON.parse(fs.readFileSync(path.join(dclintDir, 'schemas', 'compose.schema.json'), 'utf8'));

interface Build {
  context: string;
  dockerfile: string;
  args?: Record<string, string>;
}
interface Service {
  build?: Build;
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  container_name?: string;
  depends_on?: Record<string, unknown>;
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

  it('has a container per service, each its own database and user on one three-member MongoDB replica set', () => {
    const members = ['mongo-1', 'mongo-2', 'mongo-3'];
    const hosts = members.map((m) => `${m}:27017`).join(',');
    const init = compose.services['mongo-1']!;
    for (const s of services) {
      const block = compose.services[s.name];
      // One Dockerfile for every service, told which by its build arg.
      expect(block?.build?.dockerfile).toBe('services/Dockerfile');
      expect(block!.build!.args?.SERVICE).toBe(s.name);
      // documents too: its database holds share links. Every member listed, so the driver follows the primary.
      const uri = block!.environment?.MONGODB_URI;
      const password = `\\$\\{BAHI_MONGO_${s.name.toUpperCase()}_PASSWORD:\\?[^}]+\\}`;
      expect(uri).toMatch(new RegExp(`^mongodb://${s.name}:${password}@${hosts}/bahi_${s.name}\\?replicaSet=rs0&authSource=admin$`));
      // The init script on mongo-1 creates that user from the same password.
      expect(init.environment?.[`BAHI_MONGO_${s.name.toUpperCase()}_PASSWORD`]).toMatch(new RegExp(`^${password}$`));
      expect(Object.keys(block!.depends_on ?? {})).toEqual(expect.arrayContaining(['mongo-1', 'nats-1', 'nats-2', 'nats-3']));
    }
    const script = read('services/mongo-service-user.sh');
    for (const s of services) expect(script).toContain(`"${s.name}"`);
    expect(script).toContain('roles: [{ role: "readWrite", db: "bahi_" + service }]');
    for (const m of members) {
      const mongo = compose.services[m]!;
      expect(mongo.image).toMatch(/^mongo:7/);
      // Access control between members: the shared key file.
      expect(mongo.command).toEqual(['--replSet', 'rs0', '--bind_ip_all', '--keyFile', '/data/configdb/keyfile']);
      expect(mongo.environment?.BAHI_MONGO_KEY).toMatch(/^\$\{BAHI_MONGO_KEY:\?/);
      expect(mongo.volumes?.[0]).toBe(`${m}:/data/db`);
      expect(compose.volumes).toHaveProperty(m);
    }
    expect(init.environment).toMatchObject({ MONGO_INITDB_ROOT_USERNAME: 'root' });
    expect(init.volumes).toEqual(['mongo-1:/data/db', './services/mongo-service-user.sh:/docker-entrypoint-initdb.d/10-service-user.sh:ro']);
    // mongo-1 initiates the set with all three members, and is healthy only while it has a primary.
    const health = init.healthcheck!.test.join(' ');
    expect(health).toContain("rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'mongo-1:27017', priority: 2 }, { _id: 1, host: 'mongo-2:27017' }, { _id: 2, host: 'mongo-3:27017' }] })");
    expect(health).toContain("m.stateStr === 'PRIMARY'");
  });

  it('runs NATS as a three-node JetStream cluster, every stream on all three, clients knowing every node', () => {
    const nodes = ['nats-1', 'nats-2', 'nats-3'];
    for (const n of nodes) {
      const nats = compose.services[n]!;
      const cmd = nats.command!;
      const arg = (flag: string) => cmd[cmd.indexOf(flag) + 1];
      expect(cmd).toContain('-js');
      expect(arg('--name')).toBe(n);
      expect(arg('--cluster_name')).toBe('bahi');
      // Routes need the route user's password, on the listening side and on every route.
      expect(arg('--cluster')).toMatch(/^nats:\/\/route:\$\{BAHI_NATS_ROUTE_PASSWORD:\?[^}]+\}@0\.0\.0\.0:6222$/);
      const routes = arg('--routes')!.split(',');
      expect(routes.map((r) => r.replace(/\/\/route:[^@]+@/, '//'))).toEqual(nodes.map((x) => `nats://${x}:6222`));
      expect(nats.volumes).toEqual([`${n}:/data`, './services/nats.conf:/etc/nats/nats.conf:ro']);
      expect(compose.volumes).toHaveProperty(n);
    }
    for (const name of [...services.map((s) => s.name), 'gateway']) {
      const env = compose.services[name]!.environment!;
      expect([name, env.NATS_URL]).toEqual([name, 'nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222']);
      expect([name, env.BAHI_JS_REPLICAS]).toEqual([name, '3']);
    }
  });

  it('gives the gateway every service URL and every remote its own container in /remotes.json', () => {
    const gw = compose.services.gateway!;
    for (const s of services)
      expect(gw.environment?.[`${s.name.toUpperCase()}_URL`]).toBe(
        `http://${s.name}:${3001 + ['identity', 'inventory', 'sales', 'ledger', 'documents', 'reports'].indexOf(s.name)}`,
      );
    for (const r of remotes) {
      const block = compose.services[`remote-${r.name}`];
      expect(block?.build).toEqual({ context: '.', dockerfile: 'frontends/Dockerfile', args: { REMOTE: r.name } });
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
      (/^[A-Z]+_HOST$/.test(n) && readme.includes('`<NAME>_HOST`')) ||
      (/^[A-Z]+_URL$/.test(n) && readme.includes('`<NAME>_URL`'));
    expect([...names].filter((n) => !documented(n)).sort()).toEqual([]);
  });
});

/** Every image: the workspace it builds and the compose service that builds it. */
const images = [
  ...services.map((s) => ({ ...s, service: s.name, entry: `${s.dir}/dist/main.js` })),
  { name: 'gateway', dir: 'gateway', pkg: '@bahi/gateway', service: 'gateway', entry: 'gateway/dist/main.js' },
  { name: 'shell', dir: 'shell', pkg: '@bahi/shell', service: 'shell', entry: 'shell/dist/index.html' },
  ...remotes.map((r) => ({ ...r, service: `remote-${r.name}`, entry: `${r.dir}/dist/mf-manifest.json` })),
];

/** `${NAME}` and `$NAME` replaced where vars defines NAME, as Docker and envsubst do. */
const substitute = (text: string, vars: Record<string, string>) =>
  text.replace(/\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g, (m, a?: string, b?: string) => vars[(a ?? b)!] ?? m);

interface Stage {
  name?: string;
  base: string;
  text: string;
}

/** The stages of a Dockerfile, in order. */
function stagesOf(dockerfile: string): Stage[] {
  return dockerfile
    .split(/^(?=FROM )/m)
    .filter((s) => s.startsWith('FROM '))
    .map((text) => {
      const [, base, name] = /^FROM (\S+)(?: AS (\S+))?/.exec(text)!;
      return { base: base!, name, text };
    });
}

/**
 * An image as a compose block builds it: its Dockerfile with the build args put in where Docker
 * puts them (not in quoted heredocs, nor in exec-form CMD, which it leaves to run time), the stage
 * that runs with the stages it is built FROM, and the environment it runs with.
 */
function imageOf(build: Build) {
  const raw = read(build.dockerfile);
  const declared = new Map<string, string | undefined>();
  for (const m of raw.matchAll(/^ARG (\w+)(?:=(\S*))?$/gm)) if (!declared.get(m[1]!)) declared.set(m[1]!, m[2]);
  const args = build.args ?? {};
  const vars: Record<string, string> = {};
  for (const [k, d] of declared) if (d !== undefined) vars[k] = d;
  Object.assign(vars, args);
  let heredoc: string | undefined;
  const built = raw
    .split('\n')
    .map((line) => {
      if (heredoc) {
        if (line === heredoc) heredoc = undefined;
        return line;
      }
      heredoc = /<<'(\w+)'/.exec(line)?.[1];
      return /^(\s*|HEALTHCHECK .*)CMD \[/.test(line) ? line : substitute(line, vars);
    })
    .join('\n');
  const stages = stagesOf(built);
  // The stage that runs is the last one; a base that names an earlier stage is part of it.
  const chain: Stage[] = [];
  for (let s: Stage | undefined = stages[stages.length - 1]; s; s = stages.find((x) => x.name === chain.at(-1)!.base))
    chain.push(s);
  const env: Record<string, string> = {};
  for (const s of [...chain].reverse())
    for (const m of s.text.matchAll(/^ENV (.+)$/gm))
      for (const kv of m[1]!.matchAll(/(\w+)=("[^"]*"|\S*)/g)) env[kv[1]!] = kv[2]!.replace(/^"(.*)"$/, '$1');
  return {
    raw,
    built,
    /** Build args the compose file gives that the Dockerfile does not declare. */
    unknownArgs: Object.keys(args).filter((k) => !declared.has(k)),
    /** Build args the Dockerfile needs (no default) that the compose file does not give. */
    missingArgs: [...declared].filter(([k, d]) => d === undefined && !(k in args)).map(([k]) => k),
    stages,
    /** The last stage's instructions with its environment filled in, as they run. */
    run: substitute(chain[0]!.text, env),
    /** Every instruction the running image is made of. */
    runChain: chain.map((s) => s.text).join('\n'),
    env,
  };
}

const imageFor = (service: string) => imageOf(compose.services[service]!.build!);

describe('Dockerfiles', () => {
  it('every image compose builds is a workspace of this repository', () => {
    const built = Object.entries(compose.services)
      .filter(([, s]) => s.build)
      .map(([n]) => n);
    expect(built.sort()).toEqual(images.map((i) => i.service).sort());
  });

  it.each(images)(
    '$service: multi-stage, pruned to $pkg from its build args, non-root, with a healthcheck',
    ({ service, dir, pkg, entry }) => {
      const build = compose.services[service]!.build!;
      expect(build.context).toBe('.');
      expect(exists(build.dockerfile)).toBe(true);
      const image = imageOf(build);
      expect({ unknown: image.unknownArgs, missing: image.missingArgs }).toEqual({ unknown: [], missing: [] });
      expect(image.stages.length).toBeGreaterThanOrEqual(3);
      // A Dockerfile shared by several images names no workspace itself: its build args do.
      const sharers = Object.values(compose.services).filter((s) => s.build?.dockerfile === build.dockerfile);
      if (sharers.length > 1) expect(image.raw).not.toContain(pkg);
      expect(image.built).toContain(`turbo@2.11.9 prune ${pkg} --docker`);
      expect(image.built).toContain(`--filter=${pkg}...`);
      const user = /^USER (\S+)/m.exec(image.run)?.[1];
      expect(user).toBeDefined();
      expect(['root', '0']).not.toContain(user);
      expect(image.run).toMatch(/^HEALTHCHECK /m);
      // What the image starts or serves is what the build produces.
      expect(exists(entry)).toBe(true);
      if (entry.endsWith('main.js')) {
        const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(image.run)![1]!) as string[];
        // Through a shell only with exec, so node is PID 1 and gets the stop signal.
        const argv =
          cmd[0] === 'sh' && cmd[1] === '-c' && cmd[2]!.startsWith('exec ') ? cmd[2]!.slice(5).split(' ') : cmd;
        expect(argv).toEqual(['node', entry]);
      } else expect(image.run).toContain(`/src/${dir}/dist `);
      // nginx fills its templates from the environment at start; every ${VAR} in them must be set.
      const templates = [...image.run.matchAll(/<<'(\w+)' \/etc\/nginx\/templates\/\S+\n([\s\S]*?)\n\1$/gm)].map((t) => t[2]!);
      // Templates kept as files in the repository (COPY <file> /etc/nginx/templates/...).
      for (const m of image.run.matchAll(/^COPY ([^<\s]\S*) \/etc\/nginx\/templates\/\S+$/gm)) templates.push(substitute(read(m[1]!), image.env));
      expect(templates.length).toBe(image.run.split('/etc/nginx/templates/').length - 1);
      for (const t of templates) expect(t.match(/\$\{\w+\}/g) ?? []).toEqual([]);
    },
  );

  it.each(remotes)('remote-$name serves its files under /remotes/$name/', ({ name, dir }) => {
    const { run } = imageFor(`remote-${name}`);
    expect(run).toContain(`COPY --from=build /src/${dir}/dist /usr/share/nginx/html/remotes/${name}\n`);
    expect(run).toContain(`location ~ ^/remotes/${name}/(remoteEntry`);
    // PUBLIC_URL is empty in the image; compose sets it.
    expect(run).toContain(`sub_filter '"/remotes/${name}/"' '"/remotes/${name}/"';`);
    expect(run).toContain(`location /remotes/${name}/ {`);
  });

  it('the documents image carries Chromium and the fonts, and no other service image does', () => {
    for (const s of services) {
      const image = imageFor(s.name);
      if (s.name === 'documents') {
        expect(image.runChain).toMatch(/apt-get install[^\n]*chromium[^\n]*fonts-noto-core/);
        expect(image.env.CHROME_PATH).toBe('/usr/bin/chromium');
      } else {
        expect([s.name, image.runChain.includes('chromium')]).toEqual([s.name, false]);
      }
    }
  });

  it('the service healthcheck asks the port the service listens on: <SERVICE>_PORT, else its default', () => {
    const cmd = JSON.parse(/^\s*CMD (\[.*\])$/m.exec(/^HEALTHCHECK [\s\S]*?\]$/m.exec(imageFor('sales').run)![0])![1]!);
    // fetch stands in for the service: it prints the URL asked and answers ok or not.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bahi-health-'));
    const stub = path.join(dir, 'fetch.js');
    fs.writeFileSync(
      stub,
      "globalThis.fetch = async (u) => { process.stdout.write(String(u)); return { ok: process.env.STUB_OK === '1' }; };",
    );
    const check = (env: Record<string, string>) => {
      const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/_PORT$/.test(k)));
      // The image runs the healthcheck from /app, the repository's layout: require resolves the same here.
      const r = spawnSync(cmd[0], ['--require', stub, ...cmd.slice(1)], {
        cwd: ROOT,
        env: { ...base, ...env },
        encoding: 'utf8',
      });
      return { url: r.stdout, status: r.status };
    };
    try {
      expect(check({ SERVICE: 'sales', SALES_PORT: '4567', STUB_OK: '1' })).toEqual({
        url: 'http://127.0.0.1:4567/health',
        status: 0,
      });
      expect(check({ SERVICE: 'sales', SALES_PORT: '4567', STUB_OK: '0' })).toEqual({
        url: 'http://127.0.0.1:4567/health',
        status: 1,
      });
      for (const s of services)
        expect(check({ SERVICE: s.name, STUB_OK: '1' })).toEqual({
          url: `http://127.0.0.1:${DefaultPorts[s.name as ServiceName]}/health`,
          status: 0,
        });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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
