import net from 'node:net';

/** A port the OS says is free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Rejects with a message naming the port and what wanted it, instead of a later EADDRINUSE hang. */
export function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new Error(
          err.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use. Stop whatever holds it or choose another port.`
            : `Port ${port} (${what}) cannot be used: ${err.message}`,
        ),
      ),
    );
    srv.listen(port, '0.0.0.0', () => srv.close(() => resolve()));
  });
}

/**
 * `preferred` when free, otherwise the next free port above it (`onBusy` is told), so a busy
 * port never hangs start-up. Throws after `span` busy ports in a row.
 */
export async function nextFreePort(
  preferred: number,
  what: string,
  onBusy: (msg: string) => void = () => {},
  span = 50,
): Promise<number> {
  for (let p = preferred; p < preferred + span && p <= 65535; p++) {
    try {
      await assertPortFree(p, what);
      if (p !== preferred) onBusy(`Port ${preferred} (${what}) is busy; using ${p} instead.`);
      return p;
    } catch {
      /* busy: try the next one */
    }
  }
  throw new Error(`Ports ${preferred}-${preferred + span - 1} (${what}) are all in use. Free one of them or choose another port.`);
}
