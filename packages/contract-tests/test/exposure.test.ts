import { parse } from 'yaml';
import { read, workspacesIn } from './repo';

// What the compose topology exposes: only the shell's nginx is published for the API, the
// gateway believes X-Forwarded-For from that nginx only, and no monitoring port is open.
interface Service {
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  expose?: string[];
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
}
interface Compose {
  services: Record<string, Service>;
  networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } } | null>;
}

const text = read('docker-compose.yml');
const compose = parse(text, { merge: true }) as Compose;
const services = workspacesIn('services');
/** `${VAR:-default}` as compose fills it when VAR is unset. */
const withDefaults = (v: string) => v.replace(/\$\{\w+:-([^}]*)\}/g, '$1');
const networksOf = (s: Service) => (Array.isArray(s.networks) ? s.networks : Object.keys(s.networks ?? { default: null }));

function inSubnet(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const n = (a: string) => a.split('.').reduce((acc, x) => acc * 256 + Number(x), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(n(ip) / size) === Math.floor(n(base!) / size);
}

describe('compose exposure', () => {
  it("the gateway trusts X-Forwarded-For only from the shell's fixed address on their own network", () => {
    const shell = compose.services.shell!;
    const gateway = compose.services.gateway!;
    const shellNets = shell.networks as Record<string, { ipv4_address?: string }>;
    expect(Object.keys(shellNets)).toEqual(['edge']);
    const ip = withDefaults(shellNets.edge!.ipv4_address ?? '');
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(withDefaults(gateway.environment!.TRUST_PROXY!)).toBe(ip);
    expect(networksOf(gateway).sort()).toEqual(['default', 'edge']);
    const subnet = withDefaults(compose.networks?.edge?.ipam?.config?.[0]?.subnet ?? '');
    expect(inSubnet(ip, subnet)).toBe(true);
    // Nothing else joins the edge network, so nothing else can claim the shell's address.
    for (const [name, s] of Object.entries(compose.services)) if (!['shell', 'gateway'].includes(name)) expect([name, networksOf(s)]).toEqual([name, ['default']]);
    expect(gateway.ports).toBeUndefined();
  });

  it('each service listens on every interface of its container (its own default is loopback)', () => {
    for (const s of services) expect([s.name, compose.services[s.name]!.environment?.[`${s.name.toUpperCase()}_HOST`]]).toEqual([s.name, '0.0.0.0']);
  });

  it('NATS publishes no port and runs no monitoring port beyond its own loopback', () => {
    for (const n of ['nats-1', 'nats-2', 'nats-3']) {
      const nats = compose.services[n]!;
      expect([n, nats.ports]).toEqual([n, undefined]);
      expect(nats.command?.join(' ')).not.toMatch(/(^| )(-m|--http_port|-ms|--https_port)( |$)/);
    }
    expect(read('services/nats.conf')).toMatch(/^http: "127\.0\.0\.1:8222"$/m);
  });

  it('asks for a BAHI_JWT_SECRET of at least 32 characters', () => {
    expect(text).toMatch(/BAHI_JWT_SECRET: \$\{BAHI_JWT_SECRET:\?[^}]*at least 32/);
  });

  it("gives the shell's nginx the remotes' origins for its Content-Security-Policy", () => {
    const origins = compose.services.shell!.environment!.REMOTE_ORIGINS!.split(' ');
    const gw = compose.services.gateway!.environment!;
    const remoteUrls = Object.entries(gw).filter(([k]) => /^REMOTE_[A-Z]+_URL$/.test(k)).map(([, v]) => new URL(withDefaults(v)).origin);
    expect(origins.map((o) => new URL(withDefaults(o)).origin).sort()).toEqual(remoteUrls.sort());
  });
});
