import type { Express, Request, Response } from 'express';
import { SHARE_VIEWS_PER_MINUTE, SharePagePrefix } from '@bahi/contracts';
import { LoginLimiter, type LoginLimitOptions } from './login-limit';

/** Views of public share pages allowed per client address in a sliding window. */
export const DEFAULT_SHARE_LIMIT: LoginLimitOptions = { maxFailures: SHARE_VIEWS_PER_MINUTE, windowMs: 60_000 };

/** BAHI_SHARE_VIEWS_PER_MINUTE, else 60. */
export function shareLimitFromEnv(env: NodeJS.ProcessEnv): LoginLimitOptions {
  const n = Number(env.BAHI_SHARE_VIEWS_PER_MINUTE);
  return { maxFailures: Number.isInteger(n) && n > 0 ? n : DEFAULT_SHARE_LIMIT.maxFailures, windowMs: 60_000 };
}

const TOO_MANY = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><title>Too many requests</title></head><body style="font-family:system-ui,sans-serif;max-width:480px;margin:40px auto;padding:0 16px;text-align:center"><h1>Too many requests</h1><p>Too many pages were opened from this address. Please try again in a minute.</p></body></html>`;

/**
 * The public share page `/s/<token>` and its PDF `/s/<token>/pdf`: no login (the token is the
 * key), forwarded to documents, at most `limit` views a minute per address (every view counts,
 * so guessing tokens from one address is as slow as reading).
 */
export function mountShareRoute(app: Express, limit: LoginLimitOptions, forward: ((req: Request, res: Response) => void) | null): void {
  // The login limiter's sliding window; a view takes a slot and never gives it back.
  const views = new LoginLimiter(limit);
  const path = new RegExp(`^${SharePagePrefix}[^/]+(?:/pdf)?/?$`);
  app.get(path, (req: Request, res: Response) => {
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    const wait = views.reserve(req.ip ?? req.socket.remoteAddress ?? '');
    if (wait > 0) {
      res.setHeader('Retry-After', String(Math.ceil(wait / 1000)));
      res.status(429).type('html').send(TOO_MANY);
      return;
    }
    if (!forward) {
      res.status(503).type('text/plain').send('Shared documents are not available right now.');
      return;
    }
    forward(req, res);
  });
}
