import { renderToStaticMarkup } from 'react-dom/server';
import type { BrowserPool } from '../render/browser-pool';
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
