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

/** A child process of the stack, its output routed by `LogMode`, its last lines kept for errors. */
export class ManagedProcess {
  readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private readonly file?: fs.WriteStream;
  private exited: Promise<void>;
  private stopping = false;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    opts: { cwd: string; env: NodeJS.ProcessEnv; logs: LogMode; logDir: string; colorIndex: number },
  ) {
    if (opts.logs === 'files') {
      fs.mkdirSync(opts.logDir, { recursive: true });
      this.file = fs.createWriteStream(path.join(opts.logDir, `${name}.log`), { flags: 'a' });
    }
    // Own process group: Ctrl-C reaches only the parent, which stops children in order.
    this.child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const color = COLORS[opts.colorIndex % COLORS.length];
    const prefix = process.stdout.isTTY ? `\x1b[${color}m[${name}]\x1b[0m ` : `[${name}] `;
    const onLine = (line: string) => {
      this.tail.push(line);
      if (this.tail.length > 40) this.tail.shift();
      if (opts.logs === 'prefix') process.stdout.write(`${prefix}${readableLine(line)}\n`);
      else if (this.file) this.file.write(`${line}\n`);
    };
    for (const stream of [this.child.stdout, this.child.stderr]) {
      let buf = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (d: string) => {
        buf += d;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
      stream?.on('end', () => buf && onLine(buf));
    }
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        // Said out loud: a service that dies while the stack runs would otherwise go unnoticed.
        if (!this.stopping) onLine(`exited unexpectedly (${signal ?? `code ${code}`})`);
        resolve();
      });
      this.child.once('error', (err) => {
        onLine(`could not start: ${err.message}`);
        resolve();
      });
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.pid !== undefined;
  }

  lastLines(): string {
    return this.tail.join('\n');
  }

  /** SIGTERM, then SIGKILL if it is still there after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    if (this.running) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.running && this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await new Promise<void>((r) => (this.file ? this.file.end(() => r()) : r()));
  }

  /** Last resort when the parent is exiting synchronously. */
  killNow(): void {
    this.stopping = true;
    if (this.running) this.child.kill('SIGKILL');
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
