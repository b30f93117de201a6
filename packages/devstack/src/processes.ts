import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type LogMode = 'prefix' | 'files' | 'silent';

const COLORS = [36, 33, 35, 32, 34, 91, 96, 93];
const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const NOISE = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'context']);

/** A pino JSON line as `HH:MM:SS LEVEL message key=value`, for people reading a terminal. */
export function readableLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof rec.level !== 'number' || !('msg' in rec)) return line;
  const time = typeof rec.time === 'number' ? new Date(rec.time).toTimeString().slice(0, 8) : '';
  const extra = Object.entries(rec)
    .filter(([k]) => !NOISE.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const level = LEVELS[rec.level] ?? String(rec.level);
  return `${time} ${level.padEnd(5)} ${rec.context ? `[${String(rec.context)}] ` : ''}${String(rec.msg)}${extra ? `  ${extra}` : ''}`;
}

/** How a supervised process is started again after it dies (ManagedProcess.supervise). */
export interface RestartPolicy {
  /** Wait before the first restart, ms; doubled after each further death in a row. */
  initialMs: number;
  /** The longest wait, ms. */
  maxMs: number;
  /** Up this long, a process starts again from `initialMs` when it next dies. */
  resetAfterMs: number;
}

export const DEFAULT_RESTART: RestartPolicy = { initialMs: 500, maxMs: 30_000, resetAfterMs: 60_000 };

/** What the stack knows of one process, for `/api/health` (processes.json). */
export interface ProcessStatus {
  status: 'running' | 'restarting' | 'stopped';
  pid?: number;
  /** Restarts since the stack started. */
  restarts: number;
  /** When the current process was started (ISO). */
  since?: string;
  /** The last unexpected exit: `signal SIGKILL` or `code 1`, and when. */
  lastExit?: { reason: string; at: string };
  /** From that exit to serving again (health answered), ms. */
  lastRecoveryMs?: number;
}

export interface ProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  logs: LogMode;
  logDir: string;
  colorIndex: number;
}

/** `signal SIGKILL` or `code 1`. */
const exitReason = (code: number | null, signal: NodeJS.Signals | null) => (signal ? `signal ${signal}` : `code ${code}`);

/**
 * A child process of the stack, its output routed by `LogMode`, its last lines kept for errors.
 * Once `supervise`d, a death that `stop` did not ask for starts it again (same command, port and
 * data) after a backoff; each restart is logged with its reason and count.
 */
export class ManagedProcess {
  private current!: ChildProcess;
  private readonly tail: string[] = [];
  private readonly file?: fs.WriteStream;
  private readonly onLine: (line: string) => void;
  private exited!: Promise<void>;
  private stopping = false;
  private policy?: RestartPolicy;
  private ready?: () => Promise<boolean>;
  private onChange?: () => void;
  private timer?: NodeJS.Timeout;
  /** Deaths in a row without staying up `resetAfterMs`: the backoff's exponent. */
  private streak = 0;
  private startedAt = Date.now();
  restarts = 0;
  lastExit?: { reason: string; at: string };
  lastRecoveryMs?: number;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly opts: ProcessOptions,
  ) {
    if (opts.logs === 'files') {
      fs.mkdirSync(opts.logDir, { recursive: true });
      this.file = fs.createWriteStream(path.join(opts.logDir, `${name}.log`), { flags: 'a' });
    }
    const color = COLORS[opts.colorIndex % COLORS.length];
    const prefix = process.stdout.isTTY ? `\x1b[${color}m[${name}]\x1b[0m ` : `[${name}] `;
    this.onLine = (line: string) => {
      this.tail.push(line);
      if (this.tail.length > 40) this.tail.shift();
      if (opts.logs === 'prefix') process.stdout.write(`${prefix}${readableLine(line)}\n`);
      else if (this.file) this.file.write(`${line}\n`);
    };
    this.spawn();
  }

  /** The process running now (a new one after each restart). */
  get child(): ChildProcess {
    return this.current;
  }

  private spawn(): void {
    // Own process group: Ctrl-C reaches only the parent, which stops children in order.
    const child = spawn(this.command, this.args, { cwd: this.opts.cwd, env: this.opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.current = child;
    this.startedAt = Date.now();
    for (const stream of [child.stdout, child.stderr]) {
      let buf = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (d: string) => {
        buf += d;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          this.onLine(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      stream?.on('end', () => buf && this.onLine(buf));
    }
    this.exited = new Promise((resolve) => {
      let done = false;
      const ended = (reason: string) => {
        if (done) return;
        done = true;
        resolve();
        if (!this.stopping) this.died(reason);
      };
      child.once('exit', (code, signal) => ended(exitReason(code, signal)));
      child.once('error', (err) => ended(`could not start: ${err.message}`));
    });
  }

  /** An exit nobody asked for: said out loud, and with supervision a restart after the backoff. */
  private died(reason: string): void {
    const at = Date.now();
    this.lastExit = { reason, at: new Date(at).toISOString() };
    if (!this.policy) {
      this.onLine(`exited unexpectedly (${reason})`);
      this.onChange?.();
      return;
    }
    if (at - this.startedAt >= this.policy.resetAfterMs) this.streak = 0;
    const wait = Math.min(this.policy.maxMs, this.policy.initialMs * 2 ** this.streak);
    this.streak++;
    this.onLine(`exited unexpectedly (${reason}); restart ${this.restarts + 1} in ${wait / 1000} s`);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopping) return;
      this.restarts++;
      this.spawn();
      this.onLine(`restarted (restart ${this.restarts}, pid ${this.current.pid ?? '-'})`);
      this.onChange?.();
      void this.watchRecovery(at);
    }, wait);
    this.onChange?.();
  }

  /** Logs (and keeps) how long the process took from its death to serving again. */
  private async watchRecovery(diedAt: number): Promise<void> {
    const child = this.current;
    while (this.ready && !this.stopping && this.current === child && this.running) {
      if (await this.ready().catch(() => false)) {
        if (this.current !== child || !this.running) return;
        this.lastRecoveryMs = Date.now() - diedAt;
        this.onLine(`serving again ${(this.lastRecoveryMs / 1000).toFixed(1)} s after it died`);
        this.onChange?.();
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * From now on an unexpected exit restarts the process (`policy`); `ready` tells when it serves
   * again (for the time-to-recover), `onChange` hears every death, restart and recovery.
   */
  supervise(policy: RestartPolicy, ready?: () => Promise<boolean>, onChange?: () => void): void {
    this.policy = policy;
    this.ready = ready;
    this.onChange = onChange;
  }

  status(): ProcessStatus {
    const state = this.stopping ? 'stopped' : this.running ? 'running' : this.timer ? 'restarting' : 'stopped';
    return {
      status: state,
      ...(state === 'running' ? { pid: this.current.pid, since: new Date(this.startedAt).toISOString() } : {}),
      restarts: this.restarts,
      ...(this.lastExit ? { lastExit: this.lastExit } : {}),
      ...(this.lastRecoveryMs !== undefined ? { lastRecoveryMs: this.lastRecoveryMs } : {}),
    };
  }

  get running(): boolean {
    const c = this.current;
    return c.exitCode === null && c.signalCode === null && c.pid !== undefined;
  }

  lastLines(): string {
    return this.tail.join('\n');
  }

  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. Never restarted after. */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      const child = this.current;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await new Promise<void>((r) => (this.file ? this.file.end(() => r()) : r()));
  }

  /** Last resort when the parent is exiting synchronously. */
  killNow(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.running) this.current.kill('SIGKILL');
  }
}

/** Polls `url` until it answers 200, the process dies, or the deadline passes. */
export async function waitHealthy(proc: ManagedProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!proc.running) {
      throw new Error(`${proc.name} exited (code ${proc.child.exitCode ?? proc.child.signalCode}) before it was healthy. Its last output:\n${proc.lastLines()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status} ${(await res.text()).slice(0, 300)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} was not healthy at ${url} within ${Math.round(timeoutMs / 1000)} s (last answer: ${last}). Its last output:\n${proc.lastLines()}`);
}
