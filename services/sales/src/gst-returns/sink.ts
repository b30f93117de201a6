import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Writes text to a response in chunks of about 64 KiB and waits when the client reads slower
 * than we produce (backpressure), so a return of 100,000 invoices never piles up in memory.
 */
export class Sink {
  private buf: string[] = [];
  private size = 0;

  constructor(private readonly out: Writable) {}

  async write(s: string): Promise<void> {
    this.buf.push(s);
    this.size += s.length;
    if (this.size >= 64 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.size) return;
    const chunk = this.buf.join('');
    this.buf = [];
    this.size = 0;
    if (!this.out.write(chunk)) await Promise.race([once(this.out, 'drain'), once(this.out, 'close')]);
    if (this.out.destroyed) throw new Error('The client closed the connection.');
  }

  async end(): Promise<void> {
    await this.flush();
    this.out.end();
  }
}
