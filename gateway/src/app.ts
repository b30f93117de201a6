import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import compression from 'compression';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { bearerAuth, checkBearer, claimsOf, type TokenChecker } from './auth';
import { sendError } from './errors';
import { forwarder, type Forward, type ForwardHooks } from './forward';
import { mountFrontend } from './frontend';
import { collectHealth, sharedHealth } from './health';
import { DEFAULT_LOGIN_LIMIT, LoginLimiter, type LoginLimitOptions } from './login-limit';
import { RouteTable, type CompiledRoute, type PrefixDef, type RouteDef } from './route-table';
import { applySecurityHeaders, helmetOptions, securityHeaders } from './security-headers';
import { DEFAULT_SHARE_LIMIT, mountShareRoute } from './share-route';
import { exportAllHandler } from './export-all';

export interface GatewayOptions {
  routes: readonly RouteDef[];
  prefixes?: readonly PrefixDef[];
  /** Every service the product has, configured or not (for 501s and /api/health). */
  serviceNames: readonly string[];
  /** Base URL per service; a service without one answers 501. */
  serviceUrls: Readonly<Record<string, string | undefined>>;
  auth: TokenChecker;
  natsUp: () => boolean;
  shellDir: string;
  remotesDir: string;
  remoteUrls?: Record<string, string>;
  logger: Logger;
  /** Request body limits in bytes, by Content-Length. */
  limits?: { json: number; multipart: number };
  /** The devstack's processes.json (BAHI_PROCESSES_FILE): restarts shown in /api/health's details. */
  processesFile?: string;
  /** Upstream answer deadline in ms (PDF rendering included). */
  proxyTimeoutMs?: number;
  /** How long an idle connection to a service is kept (default UpstreamKeepAlive.gatewayIdleMs). */
  upstreamIdleMs?: number;
  /** Failed logins allowed per client address in a window. */
  loginLimit?: LoginLimitOptions;
  /** Public share page views allowed per client address a minute. */
  shareLimit?: LoginLimitOptions;
  /**
   * Express `trust proxy`: the proxies whose X-Forwarded-For names the client (default loopback).
   * Behind the shell's nginx it must include that hop, or every login counts against nginx's address.
   */
  trustProxy?: string;
}

export const DEFAULT_LIMITS = { json: 1024 * 1024, multipart: 5 * 1024 * 1024 };

/** Connection errors meaning the service's process is not there (refused) or died under the call (reset). */
const SERVICE_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** A restarted service serves again within a few seconds (docs/reliability.md, "Supervision"). */
const RETRY_AFTER_S = 3;

/** Paths below /api that never need a token, whatever the route table says. */
const ALWAYS_PUBLIC = new Set(['/health']);

type ProxyReq = IncomingMessage & { bahiLogout?: boolean; bahiLoginFrom?: string; bahiLoginAt?: number; bahiClaims?: unknown };

/** The gateway: a request listener for `http.createServer`; `express` is the app behind it. */
export type Gateway = RequestListener & { express: Express };

/** Methods the direct path forwards; HEAD, OPTIONS and the rest go through Express. */
const DIRECT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Where parseurl (Express's req.path) would not simply cut at '?'. */
const UNUSUAL_PATH = /[ #\u00a0\ufeff]/;

const isLogout = (route: CompiledRoute) => route.method === 'POST' && /^\/logout\/?$/i.test(route.path);
const isLogin = (route: CompiledRoute) => route.method === 'POST' && route.path === '/loginReact';

function origins(urls: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const u of Object.values(urls)) {
    try {
      const o = new URL(u).origin;
      if (o !== 'null') out.add(o);
    } catch {
      /* relative URLs are same-origin */
    }
  }
  return [...out];
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.round(n / 1024)} KB`;
}

export function createApp(opts: GatewayOptions): Gateway {
  const log = opts.logger;
  // @bahi/auth's verifyToken checks a token's signature once and then only its expiry.
  const auth = opts.auth;
  const limits = opts.limits ?? DEFAULT_LIMITS;
  const remoteUrls = opts.remoteUrls ?? {};
  const table = new RouteTable(opts.routes, opts.prefixes);
  const logins = new LoginLimiter(opts.loginLimit ?? DEFAULT_LOGIN_LIMIT);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? 'loopback');
  app.set('etag', 'weak');

  const security = securityHeaders(helmetOptions(origins(remoteUrls)));
  app.use((_req, res, next) => {
    applySecurityHeaders(res, security);
    next();
  });
  const compress = compression();
  app.use(compress);

  // Ready once NATS is connected and the revoked sessions are loaded: before, a revoked token could not be recognised.
  app.get('/health', (_req, res) => {
    const nats = opts.natsUp();
    const loaded = auth.ready?.() ?? true;
    const up = nats && loaded;
    res.setHeader('Cache-Control', 'no-store');
    res.status(up ? 200 : 503).json({ status: up ? 'ok' : 'starting', nats: nats ? 'up' : 'down', revocations: loaded ? 'loaded' : 'loading' });
  });

  const forwards = new Map<string, Forward>();
  for (const name of opts.serviceNames) {
    const target = opts.serviceUrls[name];
    if (target) forwards.set(name, forwarder(target, opts.proxyTimeoutMs ?? 60_000, opts.upstreamIdleMs));
  }

  /** Sends the call on to its service; logout and login outcomes are acted on here. */
  function proxy(service: string, req: IncomingMessage, res: ServerResponse): void {
    const hooks: ForwardHooks = {
      onResponse(status) {
        // A logout that the service accepted takes effect here at once, before the NATS event.
        const claims = claimsOf(req as Request);
        if (claims && status < 400 && (req as ProxyReq).bahiLogout) auth.revokeLocally(claims);
        // The slot taken before forwarding stays taken only for a failed guess.
        const from = (req as ProxyReq).bahiLoginFrom;
        if (from !== undefined && status !== 401 && status !== 429) logins.release(from, (req as ProxyReq).bahiLoginAt!);
      },
      onError(err, timedOut) {
        const from = (req as ProxyReq).bahiLoginFrom;
        if (from !== undefined) logins.release(from, (req as ProxyReq).bahiLoginAt!);
        log.warn({ service, code: err.code, url: req.url?.split('?')[0] }, 'upstream error');
        // Refused or cut: the process is gone (a supervisor or an orchestrator brings it back),
        // so say so at once with a time to wait, rather than a bare 502.
        const down = !timedOut && err.code !== undefined && SERVICE_GONE.has(err.code);
        if (down) {
          return sendError(
            asExpress(req, res),
            503,
            err.code === 'ECONNREFUSED'
              ? `The ${service} service is restarting; try again in a few seconds.`
              : `The ${service} service stopped while answering; try again in a few seconds.`,
            { 'Retry-After': String(RETRY_AFTER_S) },
          );
        }
        sendError(
          asExpress(req, res),
          timedOut ? 504 : 502,
          timedOut
            ? `The ${service} service did not answer in time. Please try again.`
            : `The ${service} service is not reachable right now. Please try again shortly.`,
        );
      },
    };
    forwards.get(service)!(req, res, hooks);
  }

  const api = express.Router();
  const health = sharedHealth(() => collectHealth(opts.serviceNames, opts.serviceUrls, opts.natsUp, 2000, opts.processesFile));
  api.get('/health', async (req, res) => {
    const report = await health();
    res.setHeader('Cache-Control', 'no-store');
    // Versions and the services' details (errors, browser statistics) only for a signed-in user.
    const signedIn = 'claims' in checkBearer(auth, req.headers.authorization);
    res.status(report.status === 'ok' ? 200 : 503).json(signedIn ? report : { status: report.status });
  });

  // The gateway assembles the company's all-data zip from the owning services' exports (export-all.ts).
  const exportAll = exportAllHandler(opts.serviceUrls, log);
  api.get('/export/all', (req, res, next) => {
    bearerAuth(auth, req, res, () => void exportAll(req, res).catch(next), false, 'GET /export/all');
  });

  api.use((req: Request, res: Response) => {
    const pathname = req.path;
    const found = table.match(req.method, pathname);
    if (found.kind === 'none') return sendError(res, 404, `No API call ${req.method} /api${pathname} exists.`);
    if (found.kind === 'method-not-allowed') {
      return sendError(res, 405, `${req.method} is not allowed on /api${pathname}; use ${found.allowed.join(' or ')}.`, {
        Allow: found.allowed.join(', '),
      });
    }
    const route = found.route;
    bearerAuth(auth, req, res, () => {
      if (!forwards.has(route.service)) {
        return sendError(res, 501, `${route.service} service is not available yet: ${route.method} /api${route.path}`);
      }
      const problem = bodyProblem(req, withUpload(limits, route.maxUpload));
      if (problem) {
        if (problem.status === 413) res.setHeader('Connection', 'close');
        return sendError(res, problem.status, problem.message);
      }
      if (isLogout(route)) (req as ProxyReq).bahiLogout = true;
      if (isLogin(route)) {
        const from = req.ip ?? req.socket.remoteAddress ?? '';
        // Counted before forwarding, so parallel guesses cannot all pass the check first.
        const at = Date.now();
        const wait = logins.reserve(from, at);
        if (wait > 0) {
          const minutes = Math.ceil(wait / 60_000);
          const msg = `Too many failed logins from this address. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
          res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
          return res.status(429).json({ statusCode: 429, success: false, msg, message: msg });
        }
        (req as ProxyReq).bahiLoginFrom = from;
        (req as ProxyReq).bahiLoginAt = at;
      }
      proxy(route.service, req, res);
    }, route.public === true || ALWAYS_PUBLIC.has(pathname), `${route.method} ${route.path}`);
  });
  app.use('/api', api);

  // Public share links (/s/<token>): served by documents without a token.
  mountShareRoute(app, opts.shareLimit ?? DEFAULT_SHARE_LIMIT, forwards.has('documents') ? (req, res) => proxy('documents', req, res) : null);

  mountFrontend(app, { shellDir: opts.shellDir, remotesDir: opts.remotesDir, remoteUrls });

  app.use((req: Request, res: Response) => {
    if (req.accepts(['html', 'json']) === 'json') return sendError(res, 404, `Nothing at ${req.path}.`);
    res.status(404).type('text/plain').send('Not found');
  });

  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => lastResort(err, req, res));

  /**
   * The common case, a call to a service that passes every check, goes straight to the proxy:
   * Express's router cost more than the rest of the gateway. Anything else (errors, login,
   * logout, HEAD, /api/health, the frontend) is left untouched for the Express app.
   */
  function direct(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!url.startsWith('/api/') || !DIRECT_METHODS.has(req.method ?? '')) return false;
    const q = url.indexOf('?');
    const pathname = q < 0 ? url.slice(4) : url.slice(4, q);
    if (UNUSUAL_PATH.test(pathname) || /^\/health\/?$/i.test(pathname)) return false;
    const found = table.match(req.method!, pathname);
    if (found.kind !== 'route' || isLogin(found.route) || isLogout(found.route)) return false;
    if (!forwards.has(found.route.service) || bodyProblem(req, withUpload(limits, found.route.maxUpload))) return false;
    if (found.route.public !== true) {
      const checked = checkBearer(auth, req.headers.authorization, `${found.route.method} ${found.route.path}`);
      if (!('claims' in checked)) return false;
      (req as ProxyReq).bahiClaims = checked.claims;
    }
    applySecurityHeaders(res, security);
    (req as Request).originalUrl = url;
    req.url = url.slice(4); // as Express's mount at /api would
    compress(req as Request, res as Response, () => proxy(found.route.service, req, res));
    return true;
  }

  // Request log: method, path, status, time. Never headers (they carry the bearer token).
  function logRequest(req: IncomingMessage, res: ServerResponse): void {
    if (!log.isLevelEnabled('info')) return;
    const start = process.hrtime.bigint();
    const url = (req.url ?? '').split('?')[0];
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log.info({ method: req.method, url, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
  }

  // Last resort: a sentence for the client, the details only in our log.
  function lastResort(err: unknown, rawReq: IncomingMessage, rawRes: ServerResponse): void {
    const res = asExpress(rawReq, rawRes);
    const status = (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
    if (err instanceof URIError || status === 400) return sendError(res, 400, 'The request could not be understood.');
    log.error({ err, url: (res.req.originalUrl ?? '').split('?')[0] }, 'unhandled error');
    sendError(res, 500, 'Something went wrong in the gateway. Please try again.');
  }

  /** Express's request and response on an exchange the direct path took (for its rare errors). */
  function asExpress(req: IncomingMessage, res: ServerResponse): Response {
    if (Object.getPrototypeOf(res) === app.response) return res as Response;
    // What Express's app.handle does to every exchange.
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    (req as Request).res = res as Response;
    (res as Response).req = req as Request;
    if (!(res as Response).locals) (res as Response).locals = Object.create(null);
    return res as Response;
  }

  const gateway = ((req: IncomingMessage, res: ServerResponse) => {
    logRequest(req, res);
    if (!direct(req, res)) app(req, res);
  }) as Gateway;
  gateway.express = app;
  return gateway;
}

/** The limits for one route: an import's upload may be larger than an image's. */
function withUpload(lim: { json: number; multipart: number }, maxUpload: number | undefined) {
  return maxUpload ? { ...lim, multipart: maxUpload } : lim;
}

/** Why a request body may not be forwarded (by its headers), or null. */
function bodyProblem(req: IncomingMessage, lim: { json: number; multipart: number }): { status: number; message: string } | null {
  const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
  const max = multipart ? lim.multipart : lim.json;
  const lengthHeader = req.headers['content-length'];
  if (lengthHeader === undefined) {
    // Streaming bodies of unknown size could exceed the limit unseen; browsers always send a length.
    if (req.headers['transfer-encoding']) return { status: 411, message: 'A request body must be sent with a Content-Length header.' };
    return null;
  }
  const length = Number(lengthHeader);
  if (!Number.isFinite(length) || length < 0) return { status: 400, message: 'The Content-Length header is not a valid number.' };
  if (length > max) {
    return {
      status: 413,
      message: `The request body is too large (${formatBytes(length)}); the limit is ${formatBytes(max)}${multipart ? ' for uploads' : ''}.`,
    };
  }
  return null;
}

export type { RouteDef, PrefixDef } from './route-table';
export type { TokenChecker, Claims } from './auth';
