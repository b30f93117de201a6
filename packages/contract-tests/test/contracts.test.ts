import 'reflect-metadata';
import { composeNatsConfig, jetStreamGrants, natsInboxPrefix, natsPasswordEnv, natsPermissions, NatsPrincipals, RoutePrefixes, Routes, SharePagePrefix, Subjects, ServiceNames, SubjectRoutes, type NatsPrincipal, type Subject } from '@bahi/contracts';
import { parse } from 'yaml';
import { exists, read, sourceFiles } from './repo';

// Nest's own decorator metadata keys (@nestjs/common and @nestjs/microservices constants).
const PATH = 'path';
const METHOD = 'method';
const PATTERN = 'microservices:pattern';
const HANDLER_TYPE = 'microservices:handler_type'; // 1 request-reply, 2 event
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'ALL', 'OPTIONS', 'HEAD'];

type Ctor = { new (...args: never[]): unknown; name: string };

/** Every controller of an AppModule, through static and dynamic imports. */
function controllersOf(root: unknown): Ctor[] {
  const seen = new Set<unknown>();
  const out: Ctor[] = [];
  const visit = (m: unknown) => {
    if (!m || seen.has(m)) return;
    seen.add(m);
    const dyn = m as { module?: unknown; imports?: unknown[]; controllers?: Ctor[] };
    const cls = dyn.module ?? m;
    out.push(
      ...((Reflect.getMetadata('controllers', cls as object) as Ctor[]) ?? []),
      ...(dyn.module ? (dyn.controllers ?? []) : []),
    );
    for (const i of [
      ...((Reflect.getMetadata('imports', cls as object) as unknown[]) ?? []),
      ...(dyn.module ? (dyn.imports ?? []) : []),
    ])
      visit(i);
  };
  visit(root);
  return [...new Set(out)];
}

const norm = (p: string) => ('/' + p.split('/').filter(Boolean).join('/')).replace(/:[^/]+/g, ':');

interface Provided {
  routes: Set<string>;
  requests: Set<string>;
  events: Set<string>;
}

/** What each service answers, read from the decorators of its built AppModule. */
const provided: Record<string, Provided> = {};
for (const service of ServiceNames) {
  const file = `services/${service}/dist/app.module.js`;
  if (!exists(file)) throw new Error(`${file} is missing: build first (npm run build).`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { AppModule } = require(`../../../${file}`);
  const p: Provided = { routes: new Set(), requests: new Set(), events: new Set() };
  for (const ctrl of controllersOf(AppModule)) {
    const prefixes = [Reflect.getMetadata(PATH, ctrl) ?? '/'].flat() as string[];
    for (const key of Object.getOwnPropertyNames(ctrl.prototype)) {
      const fn = (ctrl.prototype as Record<string, unknown>)[key];
      if (typeof fn !== 'function' || key === 'constructor') continue;
      const patterns = Reflect.getMetadata(PATTERN, fn) as unknown[] | undefined;
      if (patterns)
        for (const pat of patterns)
          (Reflect.getMetadata(HANDLER_TYPE, fn) === 2 ? p.events : p.requests).add(String(pat));
      const paths = Reflect.getMetadata(PATH, fn) as string | string[] | undefined;
      const method = Reflect.getMetadata(METHOD, fn) as number | undefined;
      if (paths === undefined || method === undefined) continue;
      for (const pre of prefixes)
        for (const sub of [paths].flat()) p.routes.add(`${METHODS[method]} ${norm(`${pre}/${sub}`)}`);
    }
  }
  provided[service] = p;
}

type Leaves = { [k: string]: string | Leaves };
const declared: string[] = [];
const collect = (o: Leaves) => Object.values(o).forEach((v) => (typeof v === 'string' ? declared.push(v) : collect(v)));
collect(Subjects as unknown as Leaves);

/** Who sends, emits or subscribes to what, from the source of each domain and the shared packages. */
const used: { where: string; subject: string; how: 'request' | 'emit' | 'subscribe' }[] = [];
const scanned: Record<string, string[]> = {
  ...Object.fromEntries(ServiceNames.map((s) => [s, sourceFiles(`services/${s}/src`)])),
  'packages/auth': sourceFiles('packages/auth/src'),
  gateway: sourceFiles('gateway/src'),
};
const byPath = (expr: string): string | undefined => {
  let v: unknown = Subjects;
  for (const k of expr.split('.')) v = (v as Record<string, unknown>)?.[k];
  return typeof v === 'string' ? v : undefined;
};
for (const [where, files] of Object.entries(scanned)) {
  for (const f of files) {
    const src = read(f);
    // `DocumentSubjects as S` reads as Subjects.documents.
    const aliases = [...src.matchAll(/DocumentSubjects as (\w+)/g)].map((m) => m[1]!);
    const refs = new RegExp(`\\b(?<expr>Subjects\\.\\w+\\.\\w+${aliases.map((a) => `|${a}\\.\\w+`).join('')})\\b`, 'g');
    for (const m of src.matchAll(refs)) {
      let expr = m.groups!.expr!.replace(/^Subjects\./, '');
      for (const a of aliases) if (expr.startsWith(`${a}.`)) expr = `documents.${expr.slice(a.length + 1)}`;
      const before = src.slice(Math.max(0, m.index! - 60), m.index!);
      // Providers come from the decorator metadata, also when a handler factory (service-kit's
      // historyHandlers) puts the decorator on a class it makes.
      if (/(Pattern|historyHandlers)\(\s*$/.test(before)) continue;
      const subject = byPath(expr);
      if (!subject) throw new Error(`${f}: ${m.groups!.expr} is not a declared subject`);
      // `subscribe: Subjects.x.y` is service-kit EventCache's event subscription.
      const how = /\.emit\(\s*$/.test(before) ? 'emit' : /(\.subscribe\(|\bsubscribe:)\s*$/.test(before) ? 'subscribe' : 'request';
      used.push({ where, subject, how });
    }
  }
}

const providersOf = (subject: string, kind: 'requests' | 'events') =>
  ServiceNames.filter((s) => provided[s]![kind].has(subject));

describe('NATS subjects', () => {
  it('every request a domain sends has exactly one provider service, in another domain', () => {
    const wrong = used
      .filter((u) => u.how === 'request')
      .map((u) => ({ ...u, providers: providersOf(u.subject, 'requests') }))
      .filter((u) => u.providers.length !== 1 || u.providers[0] === u.where)
      .map((u) => `${u.subject}: sent by ${u.where}, answered by ${u.providers.join(', ') || 'nobody'}`);
    expect(wrong).toEqual([]);
  });

  it('every subject a service handles is declared in the contracts, by the domain the subject names', () => {
    const wrong: string[] = [];
    for (const s of ServiceNames) {
      for (const subject of [...provided[s]!.requests, ...provided[s]!.events]) {
        if (!declared.includes(subject)) wrong.push(`${subject}: handled by ${s} but not declared in @bahi/contracts`);
        else if (provided[s]!.requests.has(subject) && subject.split('.')[0] !== s)
          wrong.push(`${subject}: answered by ${s}, not by ${subject.split('.')[0]}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every declared subject is answered (requests) or published by its own domain (events)', () => {
    const wrong: string[] = [];
    for (const subject of declared) {
      const answered = providersOf(subject, 'requests');
      const emitters = [...new Set(used.filter((u) => u.subject === subject && u.how === 'emit').map((u) => u.where))];
      if (answered.length === 1) continue;
      if (answered.length > 1) wrong.push(`${subject}: answered by ${answered.join(' and ')}`);
      else if (emitters.length === 0) wrong.push(`${subject}: declared, but no service answers or publishes it`);
      else if (emitters.some((e) => e !== subject.split('.')[0]))
        wrong.push(`${subject}: published by ${emitters.join(', ')}, not by ${subject.split('.')[0]}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every event listened to is published by some domain', () => {
    const listened = [
      ...ServiceNames.flatMap((s) => [...provided[s]!.events]),
      ...used.filter((u) => u.how === 'subscribe').map((u) => u.subject),
    ];
    const published = new Set(used.filter((u) => u.how === 'emit').map((u) => u.subject));
    expect(listened.filter((s) => !published.has(s))).toEqual([]);
  });

  it('finds the providers and consumers it checks (the scan itself works)', () => {
    expect(providersOf(Subjects.inventory.stockApply, 'requests')).toEqual(['inventory']);
    expect(used).toEqual(
      expect.arrayContaining([{ where: 'sales', subject: Subjects.inventory.stockApply, how: 'request' }]),
    );
    expect(used).toEqual(
      expect.arrayContaining([{ where: 'documents', subject: Subjects.documents.saleDocument, how: 'request' }]),
    );
    expect(used).toEqual(
      expect.arrayContaining([{ where: 'packages/auth', subject: Subjects.identity.sessionRevoked, how: 'subscribe' }]),
    );
  });
});

describe('HTTP routes', () => {
  it('every route prefix has handlers under it in its owning service', () => {
    for (const p of RoutePrefixes)
      expect([p.prefix, [...provided[p.service]!.routes].some((r) => r.split(' ')[1]!.startsWith(p.prefix))]).toEqual([
        p.prefix,
        true,
      ]);
  });

  it('every route of the gateway table has a handler with that method and path in its owning service', () => {
    const missing = Routes.filter((r) => !provided[r.service]!.routes.has(`${r.method} ${norm(r.path)}`)).map(
      (r) =>
        `${r.method} /api${r.path}: routed to ${r.service}, which has no such handler${ServiceNames.filter((s) =>
          provided[s]!.routes.has(`${r.method} ${norm(r.path)}`),
        )
          .map((s) => ` (${s} has it)`)
          .join('')}`,
    );
    expect(missing).toEqual([]);
  });

  it('every handler a service serves is reachable through the gateway (or is its health check)', () => {
    const table = new Set(Routes.map((r) => `${r.service} ${r.method} ${norm(r.path)}`));
    const underPrefix = (s: string, r: string) =>
      RoutePrefixes.some((p) => p.service === s && r.split(' ')[1]!.startsWith(p.prefix));
    const unreachable = ServiceNames.flatMap((s) =>
      [...provided[s]!.routes]
        // The public share page is reached outside /api (gateway/src/share-route.ts).
        .filter((r) => r !== 'GET /health' && !table.has(`${s} ${r}`) && !underPrefix(s, r) && !(s === 'documents' && r.startsWith(`GET ${SharePagePrefix}`)))
        .map((r) => `${s}: ${r}`),
    );
    expect(unreachable).toEqual([]);
  });
});

/**
 * Who really says what, per NATS principal: a domain's own code; packages/auth (the
 * RevocationList every service and the gateway run); service-kit's demo seed for the services
 * that call it.
 */
const saidBy: { principal: NatsPrincipal; subject: string; how: 'request' | 'emit' | 'subscribe' | 'answer' }[] = [];
for (const u of used) {
  const who: NatsPrincipal[] = u.where === 'packages/auth' ? [...NatsPrincipals] : [u.where as NatsPrincipal];
  for (const principal of who) saidBy.push({ principal, subject: u.subject, how: u.how });
}
for (const s of ServiceNames) {
  if (sourceFiles(`services/${s}/src`).some((f) => read(f).includes('seedDemoCompanyWhenReady(')))
    saidBy.push({ principal: s, subject: Subjects.identity.companyDetails, how: 'request' });
  for (const subject of provided[s]!.requests) saidBy.push({ principal: s, subject, how: 'answer' });
  for (const subject of provided[s]!.events) saidBy.push({ principal: s, subject, how: 'subscribe' });
}

describe('NATS permissions (contracts SubjectRoutes -> natsPermissions)', () => {
  const routeOf = (subject: string) => SubjectRoutes[subject as Subject];

  it('every declared subject has an owner and consumers, and the owner is the domain the subject names', () => {
    expect(Object.keys(SubjectRoutes).sort()).toEqual([...declared].sort());
    const wrong = Object.entries(SubjectRoutes)
      .filter(([subject, r]) => r.owner !== subject.split('.')[0])
      .map(([subject, r]) => `${subject}: owned by ${r.owner}`);
    expect(wrong).toEqual([]);
  });

  it('the table matches the code: every request, answer, event and subscription in code is in it, and nothing more', () => {
    const wrong: string[] = [];
    for (const u of saidBy) {
      const r = routeOf(u.subject);
      if (!r) wrong.push(`${u.subject}: used by ${u.principal} but missing from SubjectRoutes`);
      else if (u.how === 'answer' && (r.kind !== 'request' || r.owner !== u.principal)) wrong.push(`${u.subject}: answered by ${u.principal}, table says ${r.kind} of ${r.owner}`);
      else if (u.how === 'emit' && (r.kind !== 'event' || r.owner !== u.principal)) wrong.push(`${u.subject}: published by ${u.principal}, table says ${r.kind} of ${r.owner}`);
      else if ((u.how === 'request' && r.kind !== 'request') || (u.how === 'subscribe' && r.kind !== 'event')) wrong.push(`${u.subject}: ${u.how} by ${u.principal}, but it is a ${r.kind}`);
      else if ((u.how === 'request' || u.how === 'subscribe') && !r.consumers.includes(u.principal)) wrong.push(`${u.subject}: ${u.how} by ${u.principal}, not a consumer in SubjectRoutes`);
    }
    // No grant the code does not use (least privilege).
    for (const [subject, r] of Object.entries(SubjectRoutes)) {
      for (const c of r.consumers)
        if (!saidBy.some((u) => u.subject === subject && u.principal === c && (u.how === 'request' || u.how === 'subscribe')))
          wrong.push(`${subject}: ${c} is listed as a consumer but never ${r.kind === 'request' ? 'requests' : 'subscribes to'} it`);
    }
    expect(wrong).toEqual([]);
  });

  it("each principal's generated permissions cover exactly what its code does, and nothing of another's", () => {
    const wrong: string[] = [];
    for (const u of saidBy) {
      const p = natsPermissions(u.principal);
      const needs = u.how === 'request' || u.how === 'emit' ? p.publish.allow : p.subscribe.allow;
      if (!needs.includes(u.subject)) wrong.push(`${u.principal} ${u.how}s ${u.subject} but its permissions do not allow it`);
    }
    for (const principal of NatsPrincipals) {
      const p = natsPermissions(principal);
      expect(p.allow_responses).toBe(true);
      expect(p.subscribe.allow).toContain(`${natsInboxPrefix(principal)}.>`);
      const all = [...p.publish.allow, ...p.subscribe.allow];
      // No wildcard beyond its own inbox and its JetStream grants (events.ts), no other principal's inbox.
      const js = jetStreamGrants(principal);
      const extra = all.filter((x) => /[*>]/.test(x) && x !== `${natsInboxPrefix(principal)}.>` && !js.publish.includes(x));
      if (all.some((x) => x.startsWith('$JS.') && !js.publish.includes(x))) wrong.push(`${principal}: JetStream API beyond its grants`);
      if (extra.length) wrong.push(`${principal}: wildcard grants ${extra.join(', ')}`);
      // A request subject is subscribed only by its owner.
      for (const x of p.subscribe.allow) {
        const r = routeOf(x);
        if (r && r.kind === 'request' && r.owner !== principal) wrong.push(`${principal} may subscribe to ${x}, answered by ${r.owner}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(natsPermissions('documents').publish.allow).not.toContain(Subjects.inventory.stockApply);
    expect(natsPermissions('sales').publish.allow).toContain(Subjects.inventory.stockApply);
    // JetStream: an owner manages only its own stream; only reports consumes; nobody else has any.
    expect(natsPermissions('sales').publish.allow).toEqual(expect.arrayContaining(['events.sales.>', '$JS.API.STREAM.CREATE.BAHI_SALES']));
    expect(natsPermissions('sales').publish.allow).not.toContain('$JS.API.STREAM.CREATE.BAHI_LEDGER');
    expect(natsPermissions('reports').publish.allow).toEqual(expect.arrayContaining(['$JS.API.CONSUMER.MSG.NEXT.BAHI_SALES.>', '$JS.ACK.BAHI_LEDGER.>']));
    expect(natsPermissions('reports').publish.allow.filter((x) => x.startsWith('events.') || x.includes('STREAM.CREATE'))).toEqual([]);
    for (const p of ['identity', 'documents', 'gateway'] as const) expect(natsPermissions(p).publish.allow.filter((x) => x.startsWith('$JS') || x.startsWith('events.'))).toEqual([]);
    expect(natsPermissions('gateway')).toEqual({
      publish: { allow: [Subjects.identity.sessionRevocations] },
      subscribe: { allow: [natsInboxPrefix('gateway') + '.>', Subjects.identity.sessionRevoked].sort() },
      allow_responses: true,
    });
  });
});

describe('NATS in docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; volumes?: string[] }>;
  };

  it('services/nats.conf is the one generated from the contracts (node scripts/nats-config.mjs)', () => {
    expect(read('services/nats.conf')).toBe(composeNatsConfig());
  });

  it('every NATS node runs that config with every password from the environment; each service and the gateway connect as their own user', () => {
    const nodes = ['nats-1', 'nats-2', 'nats-3'].map((n) => compose.services[n]!);
    for (const nats of nodes) {
      expect(nats.command?.slice(0, 2)).toEqual(['-c', '/etc/nats/nats.conf']);
      expect(nats.command).not.toContain('-m');
      expect(nats.volumes).toContain('./services/nats.conf:/etc/nats/nats.conf:ro');
    }
    for (const p of NatsPrincipals) {
      const env = natsPasswordEnv(p);
      const required = new RegExp(`^\\$\\{${env}:\\?[^}]+\\}$`);
      for (const nats of nodes) expect([p, nats.environment?.[env]]).toEqual([p, expect.stringMatching(required)]);
      const block = compose.services[p]!;
      expect([p, block.environment?.NATS_USER]).toEqual([p, p]);
      expect([p, block.environment?.NATS_PASSWORD]).toEqual([p, expect.stringMatching(required)]);
    }
  });
});

