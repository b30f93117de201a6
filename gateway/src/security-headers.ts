import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The gateway's helmet configuration; `remoteOrigins` are the remotes served from elsewhere. */
export function helmetOptions(remoteOrigins: readonly string[]): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...remoteOrigins],
        // style-loader injects <style> tags at run time.
        'style-src': ["'self'", "'unsafe-inline'", ...remoteOrigins],
        'img-src': ["'self'", 'data:', 'blob:', ...remoteOrigins],
        'font-src': ["'self'", 'data:', ...remoteOrigins],
        'connect-src': ["'self'", ...remoteOrigins],
        // Bills and reports are shown as PDFs in a frame or new tab from blob: URLs.
        'frame-src': ["'self'", 'blob:'],
        'object-src': ["'self'", 'blob:'],
        'frame-ancestors': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    // Plain-HTTP localhost must keep working; HSTS belongs to the TLS terminator.
    strictTransportSecurity: false,
  };
}

export interface SecurityHeaders {
  set: ReadonlyArray<readonly [string, string]>;
  remove: readonly string[];
}

/**
 * What helmet does to a response, worked out once: with no per-request directives its headers
 * depend only on the configuration, and running its dozen middlewares on every call cost more
 * than setting the result.
 */
export function securityHeaders(options: HelmetOptions): SecurityHeaders {
  const set = new Map<string, string>();
  const remove: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      set.set(name, String(value));
    },
    removeHeader(name: string) {
      set.delete(name);
      remove.push(name);
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  // A directive computed per request (a nonce) would need helmet itself on every response.
  if (!done) throw new Error('helmet did not finish at once: its headers cannot be computed ahead.');
  return { set: [...set], remove };
}

export function applySecurityHeaders(res: ServerResponse, headers: SecurityHeaders): void {
  for (const name of headers.remove) res.removeHeader(name);
  for (const [name, value] of headers.set) res.setHeader(name, value);
}
