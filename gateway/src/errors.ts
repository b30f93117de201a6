import type { Response } from 'express';

/** Every error a client sees from the gateway: Nest's shape, a sentence, never internals. */
export function sendError(res: Response, statusCode: number, message: string, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
  res.status(statusCode).json({ statusCode, message, error: reason(statusCode) });
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  411: 'Length Required',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function reason(code: number): string {
  return REASONS[code] ?? 'Error';
}
