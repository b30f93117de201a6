import { execFileSync } from 'node:child_process';
import path from 'node:path';

// scripts/bootstrap.mjs decides what a machine lacks and what to do about it; each case here
// describes a machine (what is on PATH, which files and Debian packages exist, root or not) and
// asks the real script, in its own Node process (it is an ES module), for its plan.
const BOOTSTRAP = path.resolve(__dirname, '..', '..', '..', 'scripts', 'bootstrap.mjs');

interface Machine {
  env?: Record<string, string>;
  onPath?: Record<string, string>;
  files?: string[];
  dpkg?: string[];
  hasApt?: boolean;
  isRoot?: boolean;
  sudo?: boolean;
}

function plan(
  opts: { browser: boolean; pdfTools?: boolean },
  m: Machine,
): { action: string; packages?: string[]; command?: string; message?: string } {
  const script = `
    import { systemPackagesPlan } from ${JSON.stringify(BOOTSTRAP)};
    const d = JSON.parse(process.argv[1]);
    const m = {
      env: d.m.env ?? {},
      onPath: (b) => (d.m.onPath ?? {})[b] ?? null,
      exists: (p) => (d.m.files ?? []).includes(p),
      dpkgInstalled: (p) => (d.m.dpkg ?? []).includes(p),
      hasApt: d.m.hasApt ?? true,
      isRoot: d.m.isRoot ?? false,
      sudo: () => d.m.sudo ?? false,
    };
    process.stdout.write(JSON.stringify(systemPackagesPlan(d.opts, m)));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify({ opts, m })], {
      encoding: 'utf8',
    }),
  );
}

const NOTO = [
  '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf',
  '/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf',
];
const fresh: Machine = { onPath: { 'apt-get': '/usr/bin/apt-get' }, isRoot: true };
const start = { browser: true, pdfTools: false };

describe('the bootstrap decision (what npm start and npm test install)', () => {
  it('npm start on a fresh Debian machine as root installs nats-server, Chromium and the fonts, not poppler', () => {
    expect(plan(start, fresh)).toMatchObject({
      action: 'install',
      packages: ['nats-server', 'chromium', 'fonts-noto-core'],
      command: 'sudo apt-get install -y --no-install-recommends nats-server chromium fonts-noto-core',
    });
    // npm test also reads PDFs back: poppler too.
    expect(plan({ browser: true }, fresh).packages).toEqual([
      'nats-server',
      'chromium',
      'fonts-noto-core',
      'poppler-utils',
    ]);
  });

  it('asks for nothing when everything printing needs is there (Chromium by CHROME_PATH, the fonts as files)', () => {
    const ready: Machine = {
      ...fresh,
      env: { CHROME_PATH: '/opt/chromium/chrome' },
      onPath: { 'nats-server': '/usr/bin/nats-server' },
      files: ['/usr/bin/nats-server', '/opt/chromium/chrome', ...NOTO],
    };
    expect(plan(start, ready)).toEqual({ action: 'none' });
    // Without the Devanagari font a Hindi bill would print boxes: the fonts are still asked for.
    expect(plan(start, { ...ready, files: ready.files!.slice(0, 3) }).packages).toEqual(['fonts-noto-core']);
  });

  it('stops with the exact apt command when it may not install: no root and no sudo, no apt-get, or BAHI_NO_APT=1', () => {
    const noRoot = plan(start, { ...fresh, isRoot: false, sudo: false });
    expect(noRoot.action).toBe('stop');
    expect(noRoot.message).toBe(
      'Missing system packages: nats-server, chromium, fonts-noto-core, and this user cannot run apt-get (not root, no passwordless sudo). ' +
        'Please install them: sudo apt-get install -y --no-install-recommends nats-server chromium fonts-noto-core\n' +
        '  (nats-server: or set NATS_SERVER_BIN, or NATS_URL to use a running server)\n' +
        '  (chromium: or set CHROME_PATH)\n' +
        '  (fonts-noto-core: Noto Sans and Noto Sans Devanagari (Hindi documents))',
    );
    expect(plan(start, { ...fresh, hasApt: false }).message).toMatch(
      /^Missing system packages: nats-server, chromium, fonts-noto-core, and apt-get is not available here\. Please install them: sudo apt-get install/,
    );
    expect(plan(start, { ...fresh, env: { BAHI_NO_APT: '1' } }).action).toBe('stop');
    // With passwordless sudo a normal user installs through sudo.
    expect(plan(start, { ...fresh, isRoot: false, sudo: true })).toMatchObject({ action: 'install', sudo: true });
  });

  it('leaves nats-server alone with NATS_URL', () => {
    expect(plan(start, { ...fresh, env: { NATS_URL: 'nats://10.0.0.5:4222' } }).packages).toEqual([
      'chromium',
      'fonts-noto-core',
    ]);
  });
});
