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

/** Stands for the remotes' origins in the shell's nginx template; filled from REMOTE_ORIGINS when the container starts. */
export const NGINX_REMOTE_ORIGINS = '${REMOTE_ORIGINS}';

/**
 * The same headers as nginx `add_header` lines (shell/nginx/security-headers.inc.template), so
 * the page browsers open from the shell's nginx carries the gateway's CSP and frame rules.
 */
export function nginxSecurityHeaders(): string {
  const { set } = securityHeaders(helmetOptions([NGINX_REMOTE_ORIGINS]));
  const lines = set.map(([name, value]) => `add_header ${name} "${value.replace(/"/g, '\\"')}" always;`);
  return [
    '# Generated from gateway/src/security-headers.ts by `node gateway/scripts/nginx-security-headers.js`;',
    "# gateway/test/nginx.test.ts fails when it differs. ${REMOTE_ORIGINS} is filled when nginx starts.",
    ...lines,
    '',
  ].join('\n');
}
