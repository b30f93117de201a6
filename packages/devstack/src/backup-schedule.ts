/**
 * The platform's backups while `npm start` runs: one backup a day at BAHI_BACKUP_AT (India's
 * clock), retention after each good one, the copy to BAHI_BACKUP_COPY_DIR, and the answers for
 * Setting > Backups and the stale-backup banner (served by backup-agent.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { IST_OFFSET_MS } from '@bahi/gst';
import { createBackup, listBackups, type BackupResult, type Sidecar } from './backup';
import { retention } from './retention';

const HOUR_MS = 3_600_000;
/** The banner shows once the newest good backup (or, before any, the first start) is this old. */
export const STALE_AFTER_HOURS = 36;

export interface BackupSettings {
  at: { hour: number; minute: number };
  dir: string;
  copyDir: string | null;
  passphrase?: string;
}

/** BAHI_BACKUP_AT (HH:MM, India, default 22:30), BAHI_BACKUP_DIR (default ./backups), BAHI_BACKUP_COPY_DIR, BAHI_BACKUP_PASSPHRASE. */
export function backupSettings(env: NodeJS.ProcessEnv, rootDir: string): BackupSettings {
  const raw = env.BAHI_BACKUP_AT || '22:30';
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(raw.trim());
  if (!m)
    throw new Error(
      `BAHI_BACKUP_AT must be a time of day as HH:MM on India's clock (for example 22:30), got "${raw}".`,
    );
  return {
    at: { hour: Number(m[1]), minute: Number(m[2]) },
    dir: path.resolve(rootDir, env.BAHI_BACKUP_DIR || 'backups'),
    copyDir: env.BAHI_BACKUP_COPY_DIR ? path.resolve(rootDir, env.BAHI_BACKUP_COPY_DIR) : null,
    ...(env.BAHI_BACKUP_PASSPHRASE ? { passphrase: env.BAHI_BACKUP_PASSPHRASE } : {}),
  };
}

/** The next instant after `now` at which India's clock shows `at`. */
export function nextBackupAt(at: { hour: number; minute: number }, now: Date): Date {
  const ist = new Date(now.getTime() + IST_OFFSET_MS);
  let t = Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate(), at.hour, at.minute) - IST_OFFSET_MS;
  if (t <= now.getTime()) t += 24 * HOUR_MS;
  return new Date(t);
}

export interface BackupListReply {
  last_good: string | null;
  list: {
    name: string;
    at: string;
    size: number;
    good: boolean;
    copied: boolean | null;
    encrypted: boolean;
    problems: string[];
  }[];
  dir: string;
  copy_dir: string | null;
  copy_ok: boolean | null;
  running: boolean;
  next_at: string;
  at: string;
}

export interface BackupWarning {
  /** Why the banner shows: `stale` (no good backup for 36 hours), `never` (none since the first start, 36 hours ago), `copy_missing`. */
  reasons: ('stale' | 'never' | 'copy_missing')[];
  last_good: string | null;
  copy_dir: string | null;
}

export interface BackupServiceOptions {
  dataDir: string;
  rootDir: string;
  settings: BackupSettings;
  log?: (msg: string) => void;
  now?: () => Date;
}

export class BackupService {
  private mongoUri: string | null = null;
  private dataDir: string;
  private running: Promise<BackupResult> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => Date;
  private readonly log: (msg: string) => void;
  readonly firstStart: Date;

  constructor(private readonly opts: BackupServiceOptions) {
    this.now = opts.now ?? (() => new Date());
    this.log = opts.log ?? ((m) => console.log(m));
    this.dataDir = opts.dataDir;
    // A new installation's banner waits 36 hours from its first start.
    const file = path.join(opts.dataDir, 'first-start');
    fs.mkdirSync(opts.dataDir, { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, this.now().toISOString() + '\n');
    const t = new Date(fs.readFileSync(file, 'utf8').trim());
    this.firstStart = Number.isNaN(t.getTime()) ? this.now() : t;
  }

  /** The running embedded server's root URI (absent: backups start their own server on the folder) and the folder holding its secrets. */
  attach(mongoUri: string | null, dataDir?: string): void {
    this.mongoUri = mongoUri;
    if (dataDir) this.dataDir = dataDir;
  }

  get settings(): BackupSettings {
    return this.opts.settings;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** One backup now (joins the one being made, if any), then retention. */
  runNow(): Promise<BackupResult> {
    this.running ??= (async () => {
      try {
        const s = this.opts.settings;
        const r = await createBackup({
          dataDir: this.dataDir,
          outDir: s.dir,
          rootDir: this.opts.rootDir,
          ...(this.mongoUri ? { mongoUri: this.mongoUri } : {}),
          ...(s.passphrase ? { passphrase: s.passphrase } : {}),
          ...(s.copyDir ? { copyDir: s.copyDir } : {}),
          now: this.now(),
        });
        this.log(
          r.verification?.good
            ? `Backup ${r.name} made and verified.`
            : `Backup ${r.name} is NOT good: ${r.verification?.problems.join(' ')}`,
        );
        if (r.copied === false) this.log(`Backup copy failed: ${r.copyError}`);
        this.prune();
        return r;
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Deletes what retention drops, here and in the copy location. */
  prune(): string[] {
    const { drop } = retention(
      listBackups(this.opts.settings.dir).map((b) => ({ name: b.name, at: b.at, good: b.verification?.good === true })),
      this.now(),
    );
    for (const name of drop) {
      for (const dir of [this.opts.settings.dir, this.opts.settings.copyDir]) {
        if (!dir) continue;
        fs.rmSync(path.join(dir, name), { force: true });
        fs.rmSync(path.join(dir, `${name}.json`), { force: true });
      }
    }
    // What a backup killed half-way left behind (its staging folder, its unfinished file), a day on.
    const dir = this.opts.settings.dir;
    for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
      if (!name.startsWith('.staging-') && !name.endsWith('.partial')) continue;
      const file = path.join(dir, name);
      if (Date.now() - fs.statSync(file).mtimeMs > 24 * HOUR_MS) fs.rmSync(file, { recursive: true, force: true });
    }
    return drop;
  }

  /** Daily at BAHI_BACKUP_AT. */
  schedule(after?: Date): void {
    // From the later of now and the last run's time, so a timer that fires a little early never runs twice.
    const now = this.now();
    const next = nextBackupAt(this.opts.settings.at, after && after > now ? after : now);
    this.timer = setTimeout(
      () => {
        this.runNow()
          .catch((err: Error) => this.log(`The daily backup failed: ${err.message}`))
          .finally(() => this.timer && this.schedule(next));
      },
      Math.max(1000, next.getTime() - now.getTime()),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private copyOk(): boolean | null {
    const c = this.opts.settings.copyDir;
    return c ? fs.existsSync(c) : null;
  }

  list(): BackupListReply {
    const all = listBackups(this.opts.settings.dir);
    const good = all.find((b) => b.verification?.good);
    return {
      last_good: good?.at ?? null,
      list: all.map((b: Sidecar) => ({
        name: b.name,
        at: b.at,
        size: b.size,
        good: b.verification?.good === true,
        copied: b.copied,
        encrypted: b.encrypted,
        problems: b.verification?.problems ?? (b.copyError ? [b.copyError] : []),
      })),
      dir: this.opts.settings.dir,
      copy_dir: this.opts.settings.copyDir,
      copy_ok: this.copyOk(),
      running: this.busy,
      next_at: nextBackupAt(this.opts.settings.at, this.now()).toISOString(),
      at: `${String(this.opts.settings.at.hour).padStart(2, '0')}:${String(this.opts.settings.at.minute).padStart(2, '0')}`,
    };
  }

  warning(): BackupWarning {
    const lastGood = listBackups(this.opts.settings.dir).find((b) => b.verification?.good)?.at ?? null;
    const since = lastGood ? new Date(lastGood) : this.firstStart;
    const reasons: BackupWarning['reasons'] = [];
    if (this.now().getTime() - since.getTime() > STALE_AFTER_HOURS * HOUR_MS)
      reasons.push(lastGood ? 'stale' : 'never');
    if (this.copyOk() === false) reasons.push('copy_missing');
    return { reasons, last_good: lastGood, copy_dir: this.opts.settings.copyDir };
  }
}
