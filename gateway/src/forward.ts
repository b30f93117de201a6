import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';

/** Connection-level headers: they describe one hop and are never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

/** Not forwarded upstream either: the gateway has its own host, forwarding headers and 100-continue. */
const REQUEST_OWN = new Set([
  'host',
  'expect',
  'x-forwarded-for',
  'x-forwarded-port',
  'x-forwarded-proto',
  'x-forwarded-host',
]);

export interface ForwardHooks {
  /** The service answered (before its answer is sent on). */
  onResponse(status: number): void;
  /** The service could not be reached or did not answer in time; the client has had nothing yet unless headersSent. */
  onError(err: Error & { code?: string }, timedOut: boolean): void;
}

export type Forward = (req: IncomingMessage, res: ServerResponse, hooks: ForwardHooks) => void;

/** Bodies up to this size are read whole before the call goes out (see below). */
const SMALL_BODY = 64 * 1024;

const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/**
 * Forwards calls to one service over a keep-alive pool (undici): method, path, query, headers
 * and body as they came, plus X-Forwarded-For/Port/Proto/Host; the answer is streamed back.
 * `timeoutMs` bounds the wait for the answer's headers and any pause in its body.
 */
export function forwarder(target: string, timeoutMs: number): Forward {
  const pool = new Pool(new URL(target).origin, {
    connections: 256,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return (req, res, hooks) => {
    const headers = requestHeaders(req);
    const length = req.headers['content-length'];
    const hasBody = length !== undefined && length !== '0';
    // A client that hangs up cancels its call to the service. undici takes any emitter of
    // 'abort' as the signal; an AbortController cost several times more per call.
    const cancel = new EventEmitter();
    let cancelled = false;
    const onClose = () => {
      if (res.writableFinished) return;
      cancelled = true;
      cancel.emit('abort');
    };
    res.once('close', onClose);
    if (hasBody && Number(length) <= SMALL_BODY) {
      // A small body (a JSON form) goes out in the same write as the headers, so the service
      // wakes once for the call, not once for the headers and again for the body.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('error', () => res.destroy());
      req.on('end', () => {
        if (!cancelled) send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      });
    } else send(hasBody ? req : null);

    function send(body: Buffer | IncomingMessage | null): void {
      pool.stream(
        { method: req.method as 'GET', path: req.url ?? '/', headers, body, signal: cancel },
        ({ statusCode, headers: answer }) => {
          for (const name in answer) {
            if (HOP_BY_HOP.has(name)) continue;
            const value = answer[name];
            if (value !== undefined) res.setHeader(name, value);
          }
          res.statusCode = statusCode;
          hooks.onResponse(statusCode);
          return res;
        },
        (err) => {
          res.removeListener('close', onClose);
          if (!err || cancelled) return;
          const code = (err as { code?: string }).code;
          hooks.onError(err, code !== undefined && TIMEOUTS.has(code));
        },
      );
    }
  };
}

function requestHeaders(req: IncomingMessage): string[] {
  const raw = req.rawHeaders;
  const listed = req.headers.connection;
  const alsoHop = listed ? new Set(listed.toLowerCase().split(/\s*,\s*/)) : undefined;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || REQUEST_OWN.has(name) || alsoHop?.has(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  // As http-proxy's xfwd did: append this hop to what earlier proxies said.
  const h = req.headers;
  const encrypted = (req.socket as { encrypted?: boolean }).encrypted === true;
  const port = /:(\d+)/.exec(h.host ?? '')?.[1] ?? (encrypted ? '443' : '80');
  const append = (prev: string | string[] | undefined, value: string) => (prev ? `${String(prev)},${value}` : value);
  out.push(
    'x-forwarded-for',
    append(h['x-forwarded-for'], req.socket.remoteAddress ?? ''),
    'x-forwarded-port',
    append(h['x-forwarded-port'], port),
    'x-forwarded-proto',
    append(h['x-forwarded-proto'], encrypted ? 'https' : 'http'),
    'x-forwarded-host',
    String(h['x-forwarded-host'] ?? h.host ?? ''),
  );
  return out;
}
