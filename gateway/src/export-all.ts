import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import archiver from 'archiver';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { upstreamsOf } from './forward';
import { sendError } from './errors';

/**
 * GET /api/export/all: one zip of the company's lists, each the owning service's own
 * `GET /export/{list}?format=xlsx` called with the caller's token. The gateway only assembles:
 * each service keeps its data, its columns and its tenancy check (the company comes from the
 * token there), so no list is written twice and no service reads another's database.
 */
export const EXPORT_ALL_LISTS: readonly { list: string; service: string; file: string }[] = [
  { list: 'products', service: 'inventory', file: 'products.xlsx' },
  { list: 'stockMovements', service: 'inventory', file: 'stock-movements.xlsx' },
  { list: 'customers', service: 'ledger', file: 'customers.xlsx' },
  { list: 'distributors', service: 'ledger', file: 'distributors.xlsx' },
  { list: 'sales', service: 'sales', file: 'sales.xlsx' },
  { list: 'saleLines', service: 'sales', file: 'sale-lines.xlsx' },
  { list: 'estimates', service: 'sales', file: 'estimates.xlsx' },
  { list: 'creditNotes', service: 'sales', file: 'credit-notes.xlsx' },
  { list: 'purchases', service: 'inventory', file: 'purchases.xlsx' },
  { list: 'purchaseLines', service: 'inventory', file: 'purchase-lines.xlsx' },
  { list: 'debitNotes', service: 'inventory', file: 'debit-notes.xlsx' },
  { list: 'payments', service: 'ledger', file: 'payments.xlsx' },
  { list: 'ledgers', service: 'ledger', file: 'ledgers.xlsx' },
];

export const EXPORT_ALL_MESSAGES = {
  manager: 'Only a manager can download all of the company’s data.',
  unavailable: (service: string) => `The ${service} service is not available right now, so the download could not start. Please try again shortly.`,
} as const;

function get(base: string, path: string, authorization: string): Promise<IncomingMessage> {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  const lib = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.get(url, { headers: { authorization, accept: '*/*' } }, resolve);
    req.on('error', reject);
  });
}

/** Collects a refused answer's JSON message (a service's 4xx/5xx sentence). */
async function messageOf(res: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

export function exportAllHandler(serviceUrls: Readonly<Record<string, string | undefined>>, log: Logger) {
  return async (req: Request, res: Response): Promise<void> => {
    const claims = (req as Request & { bahiClaims?: { position?: string } }).bahiClaims;
    if (claims?.position !== 'manager') return sendError(res, 403, EXPORT_ALL_MESSAGES.manager);
    const authorization = req.headers.authorization!;
    for (const { service } of EXPORT_ALL_LISTS) {
      if (!serviceUrls[service]) return sendError(res, 503, EXPORT_ALL_MESSAGES.unavailable(service));
    }
    const call = (i: number) => {
      const { list, service } = EXPORT_ALL_LISTS[i]!;
      return get(upstreamsOf(serviceUrls[service]!)[0]!, `export/${list}?format=xlsx`, authorization);
    };
    // The first list is asked for before the zip starts, so a refusal still gets its status and sentence.
    let first: IncomingMessage;
    try {
      first = await call(0);
    } catch {
      return sendError(res, 503, EXPORT_ALL_MESSAGES.unavailable(EXPORT_ALL_LISTS[0]!.service));
    }
    if (first.statusCode !== 200) {
      const status = first.statusCode ?? 502;
      return sendError(res, status >= 500 ? 502 : status, (await messageOf(first)) ?? EXPORT_ALL_MESSAGES.unavailable(EXPORT_ALL_LISTS[0]!.service));
    }
    const day = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10); // IST date
    res.status(200);
    res.setHeader('Content-Type', 'application/zip');
    res.setHeader('Content-Disposition', `attachment; filename="bahi-all-data-${day}.zip"`);
    res.setHeader('Cache-Control', 'no-store');
    // XLSX files are already deflated: stored entries cost no CPU and lose nothing.
    const zip = archiver('zip', { store: true });
    zip.on('error', (err) => {
      log.warn({ err }, 'export/all: zip failed');
      res.destroy(err);
    });
    zip.pipe(res);
    // One list at a time: each service's answer streams straight into its entry.
    try {
      for (let i = 0; i < EXPORT_ALL_LISTS.length; i++) {
        const answer = i === 0 ? first : await call(i);
        if (answer.statusCode !== 200) {
          // Headers are sent: a cut download is better than a zip silently missing a list.
          throw new Error(`${EXPORT_ALL_LISTS[i]!.list}: ${answer.statusCode} ${(await messageOf(answer)) ?? ''}`);
        }
        const done = new Promise<void>((resolve) => zip.once('entry', () => resolve()));
        zip.append(answer, { name: EXPORT_ALL_LISTS[i]!.file });
        await done;
      }
      await zip.finalize();
    } catch (err) {
      log.warn({ err }, 'export/all: a list failed; download cut');
      zip.abort();
      res.destroy(err as Error);
    }
  };
}
