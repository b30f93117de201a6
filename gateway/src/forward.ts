import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin, type Plugin } from 'http-proxy-middleware';
import { UpstreamKeepAlive } from '@bahi/contracts';

type ProxyServer = Parameters<Plugin<IncomingMessage, ServerResponse>>[0];

export interface ForwardHooks {
  /** The service answered (before its answer is sent on). */
  onResponse(status: number): void;
  /** The service could not be reached or did not answer in time; the client has had nothing yet. */
  onError(err: Error & { code?: string }, timedOut: boolean): void;
}

export type Forward = (req: IncomingMessage, res: ServerResponse, hooks: ForwardHooks) => void;

/** Connection-level headers of the service's answer: they describe its hop, not the client's (RFC 9110 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

/** How long an upstream that refused a connection is passed over before it is tried again. */
const DOWN_FOR_MS = 2000;

interface Call {
  hooks: ForwardHooks;
  timedOut: boolean;
  upstream?: http.ClientRequest;
  /** Index of the upstream this attempt went to, and how many were tried (several upstreams only). */
  at: number;
  tries: number;
  /** The request body as it came, kept for a retry on another upstream (several upstreams only). */
  body?: Buffer[];
}

/** Each call's state, for http-proxy-middleware's per-proxy event handlers. */
const calls = new WeakMap<IncomingMessage, Call>();

/** The base URLs in a service's URL setting: one, or several separated by commas (replicas). */
export function upstreamsOf(setting: string): string[] {
  return setting
    .split(',')
    .map((u) => u.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

function keepChunk(this: IncomingMessage, chunk: Buffer): void {
  calls.get(this)?.body?.push(chunk);
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * Forwards calls to one service with http-proxy-middleware over a keep-alive agent: method,
 * path, query, headers and body as they came, plus X-Forwarded-For/Port/Proto/Host; the answer is
 * streamed back. `timeoutMs` bounds any silence of the service's connection.
 *
 * `target` may list several replicas ("http://a:3003,http://b:3003"): calls go round-robin, and a
 * call whose connection is refused goes on to the next replica (refused, the call never reached
 * the service, so sending it again is safe); any other failure answers 502 as with one replica.
 */
export function forwarder(target: string, timeoutMs: number, idleMs: number = UpstreamKeepAlive.gatewayIdleMs): Forward {
  const targets = upstreamsOf(target);
  const several = targets.length > 1;
  /** Per upstream: until when it is passed over (0: up). */
  const downUntil = new Array<number>(targets.length).fill(0);
  let next = 0;
  /** The next upstream round-robin, passing over those refused lately (unless all were). */
  const pick = (call: Call | undefined): string => {
    let k = next;
    for (let i = 0; i < targets.length; i++) {
      const j = (next + i) % targets.length;
      if (downUntil[j] === 0 || downUntil[j] <= Date.now()) {
        k = j;
        break;
      }
    }
    next = (k + 1) % targets.length;
    if (call) call.at = k;
    return targets[k];
  };

  // Idle sockets are dropped before the service would close them (UpstreamKeepAlive). Dropping
  // the upstream's Keep-Alive header below (hop-by-hop) also hides its timeout hint from the agent.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: idleMs });
  let server: ProxyServer | undefined;
  const retryOptions = { changeOrigin: true, xfwd: false, agent, proxyTimeout: timeoutMs };

  /** Sends a refused call to the next upstream not tried yet; false when every one was. */
  const retry = (req: IncomingMessage, res: ServerResponse, call: Call): boolean => {
    if (!server || call.tries >= targets.length) return false;
    call.tries++;
    const k = (call.at + 1) % targets.length;
    call.at = k;
    next = (k + 1) % targets.length;
    let buffer: PassThrough | undefined;
    if (call.body) {
      // The first attempt may have read part of the body: send that again, then the rest.
      req.removeListener('data', keepChunk);
      buffer = new PassThrough();
      for (const c of call.body) buffer.write(c);
      if (req.readableEnded) buffer.end();
      else req.pipe(buffer);
    }
    // X-Forwarded-* were added by the first attempt already (xfwd: false here).
    server.web(req, res, { ...retryOptions, target: targets[k], buffer });
    return true;
  };

  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: targets[0],
    // Only with replicas: one upstream keeps the plain path.
    ...(several ? { router: (req: IncomingMessage) => pick(calls.get(req)) } : {}),
    changeOrigin: true,
    xfwd: true,
    agent,
    proxyTimeout: timeoutMs,
    // Errors are answered by the gateway (hooks.onError), not by the library's default handler;
    // proxyEventsPlugin wires the `on` handlers below.
    ejectPlugins: true,
    plugins: [
      debugProxyErrorsPlugin,
      proxyEventsPlugin,
      ...(several ? [(s: ProxyServer) => void (server = s)] : []),
    ],
    on: {
      ...(several
        ? {
            start: (req: IncomingMessage) => {
              const call = calls.get(req);
              // Kept from the first byte (before http-proxy pipes it), in case this attempt is refused.
              if (call && !call.body && hasBody(req)) {
                call.body = [];
                req.on('data', keepChunk);
              }
            },
          }
        : {}),
      proxyReq: (proxyReq, req) => {
        const call = calls.get(req);
        if (call) call.upstream = proxyReq;
        proxyReq.on('timeout', () => {
          if (call) call.timedOut = true;
        });
      },
      proxyRes: (proxyRes, req, res) => {
        for (const name of HOP_BY_HOP) delete proxyRes.headers[name];
        // A service dying mid-answer must cut the client off, not leave it waiting for the rest.
        proxyRes.once('aborted', () => res.destroy());
        proxyRes.once('error', () => res.destroy());
        const call = calls.get(req);
        if (call?.body) {
          req.removeListener('data', keepChunk);
          call.body = undefined;
        }
        call?.hooks.onResponse(proxyRes.statusCode ?? 500);
      },
      error: (err, req, res) => {
        const call = calls.get(req);
        const out = res as ServerResponse;
        if (!call || !('writeHead' in out) || out.headersSent || out.destroyed) {
          (res as { destroy(): void }).destroy();
          return;
        }
        const code = (err as { code?: string }).code;
        if (several && code === 'ECONNREFUSED') {
          downUntil[call.at] = Date.now() + DOWN_FOR_MS;
          if (retry(req, out, call)) return;
        }
        call.hooks.onError(err as Error & { code?: string }, call.timedOut || code === 'ETIMEDOUT');
      },
    },
  });
  return (req, res, hooks) => {
    const call: Call = { hooks, timedOut: false, at: 0, tries: 1 };
    calls.set(req, call);
    // A client that hangs up cancels its call to the service (a long PDF render, a slow list).
    res.once('close', () => {
      if (!res.writableFinished) call.upstream?.destroy();
    });
    void proxy(req, res, (err?: unknown) => {
      if (err) hooks.onError(err as Error, false);
    });
  };
}
