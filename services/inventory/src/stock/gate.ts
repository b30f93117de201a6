/**
 * At most `limit` tasks at once; the rest wait in arrival order. Stock transactions of a busy shop
 * touch the same running-total documents: fifty at once mostly conflict and retry, burning the
 * CPU the others need, while a few at a time commit one after another.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
