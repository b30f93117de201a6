/**
 * At most `limit` tasks at once; the rest wait in arrival order. Stock transactions of a busy shop
 * touch the same running-total documents: fifty at once mostly conflict and retry, burning the
 * CPU the others need, while a few at a time commit one after another.
 */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  /**
   * Runs `task` when its turn comes. With `maxWaitMs`, a task that waited longer is not run
   * (GateTimeout): its caller has given up by then, and running it late only lengthens the queue
   * for the callers still waiting (after a replica dies, the takeover of its sales arrives at once).
   */
  async run<T>(task: () => Promise<T>, maxWaitMs?: number): Promise<T> {
    if (this.running >= this.limit) {
      const queuedAt = Date.now();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
      if (maxWaitMs !== undefined && Date.now() - queuedAt > maxWaitMs) {
        this.release();
        throw new GateTimeout(Date.now() - queuedAt);
      }
    } else this.running++;
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}

/** A task that waited past its deadline in the gate and was not run. */
export class GateTimeout extends Error {
  constructor(readonly waitedMs: number) {
    super(`waited ${waitedMs} ms for its turn`);
  }
}
