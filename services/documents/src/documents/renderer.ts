import { GatewayTimeoutException, HttpException, ServiceUnavailableException } from '@nestjs/common';
import type { Response } from 'express';
import type { Logger } from 'pino';
import { renderToStaticMarkup } from 'react-dom/server';
import { PoolBusyError, RenderTimeoutError, type BrowserPool } from '../render/browser-pool';
import { exactPageWidth } from '../render/page-box';
import type { PreparedDocument } from './kinds';

/** HTML of a prepared document (static markup: the page runs no script of ours). */
export function toHtml(doc: PreparedDocument): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(doc.element)}`;
}

/** Template -> PDF through the pool; knows nothing of where the data came from. */
export async function renderPdf(pool: BrowserPool, doc: PreparedDocument): Promise<Buffer> {
  const pdf = await pool.render(toHtml(doc), { width: `${doc.size.widthMm}mm`, height: `${doc.size.heightMm}mm`, fitHeight: doc.fitHeight });
  // A thermal roll's width exactly (Chromium writes whole points).
  return doc.fitHeight ? exactPageWidth(pdf, doc.size.widthMm) : pdf;
}

/**
 * renderPdf for an HTTP answer: a busy pool is 503 with Retry-After, a render past its time 504,
 * anything else unexpected a logged 503 (`what` names the document in the log).
 */
export async function renderForResponse(pool: BrowserPool, doc: PreparedDocument, res: Response, log: Logger, what: string): Promise<Buffer> {
  try {
    return await renderPdf(pool, doc);
  } catch (err) {
    if (err instanceof PoolBusyError) {
      res.setHeader('Retry-After', String(err.retryAfterSeconds));
      throw new ServiceUnavailableException(err.message);
    }
    if (err instanceof RenderTimeoutError) throw new GatewayTimeoutException(err.message);
    if (err instanceof HttpException) throw err;
    log.error({ err }, `rendering ${what} failed`);
    throw new ServiceUnavailableException('The document could not be rendered, please try again.');
  }
}
