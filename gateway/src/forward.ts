import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';

export interface ForwardHooks {
  /** The service answered (before its answer is sent on). */
  onResponse(status: number): void;
  /** The service could not be reached or did not answer in time; the client has had nothing yet. */
  onError(err: Error & { code?: string }, timedOut: boolean): void;
}

export type Forward = (req: IncomingMessage, res: ServerResponse, hooks: ForwardHooks) => void;

/** Connection-level headers of the service's answer: they describe its hop, not the client's (RFC 9110 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade'];

/** Each call's hooks, for http-proxy-middleware's per-proxy event handlers. */
const calls = new WeakMap<IncomingMessage, { hooks: ForwardHooks; timedOut: boolean; upstream?: http.ClientRequest }>();

/**
 * Forwards calls to one service with http-proxy-middleware over a keep-alive agent: method,
 * path, query, headers and body as they came, plus X-Forwarded-For/Port/Proto/Host; the answer is
 * streamed back. `timeoutMs` bounds any silence of the service's connection.
 */
export function forwarder(target: string, timeoutMs: number): Forward {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target,
    changeOrigin: true,
    xfwd: true,
    agent,
    proxyTimeout: timeoutMs,
    // Errors are answered by the gateway (hooks.onError), not by the library's default handler;
    // proxyEventsPlugin wires the `on` handlers below.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    on: {
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
        calls.get(req)?.hooks.onResponse(proxyRes.statusCode ?? 500);
      },
      error: (err, req, res) => {
        const call = calls.get(req);
        const out = res as ServerResponse;
        if (!call || !('writeHead' in out) || out.headersSent || out.destroyed) {
          (res as { destroy(): void }).destroy();
          return;
        }
        const code = (err as { code?: string }).code;
        call.hooks.onError(err as Error & { code?: string }, call.timedOut || code === 'ETIMEDOUT');
      },
    },
  });
  return (req, res, hooks) => {
    const call: { hooks: ForwardHooks; timedOut: boolean; upstream?: http.ClientRequest } = { hooks, timedOut: false };
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
