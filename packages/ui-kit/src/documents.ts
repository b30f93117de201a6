import { requestBlob } from './api';

export interface OpenDocumentOptions {
  /** Save: the service answers it as an attachment; the browser downloads it. */
  download?: boolean;
  /** Print through a hidden frame. */
  print?: boolean;
  /** Open the PDF in a new tab. */
  newTab?: boolean;
}

/** `/documents/bill/5`, `documents/bill/5` or `/api/documents/bill/5` -> `/documents/bill/5`. */
export function documentPath(path: string): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  return p.startsWith('/api/') ? p.slice(4) : p;
}

/** The file name of a Content-Disposition header (`inline; filename="bill-5.pdf"`). */
export function fileNameOf(disposition: string | null | undefined, fallback = 'document.pdf'): string {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return m ? decodeURIComponent(m[1]!) : fallback;
}

/** Fetches a PDF of the documents service with the bearer token. */
export async function fetchDocument(path: string, opts: { download?: boolean } = {}): Promise<{ blob: Blob; fileName: string }> {
  const { blob, contentDisposition } = await requestBlob(documentPath(path), { query: opts.download ? { download: 1 } : undefined });
  const kind = documentPath(path).split('/')[2] ?? 'document';
  return { blob, fileName: fileNameOf(contentDisposition, `${kind}.pdf`) };
}

// Blob URLs stay alive long enough for a viewer tab or the print dialog to read them.
const KEEP_URL_MS = 5 * 60_000;

function printInFrame(url: string): void {
  const frame = document.createElement('iframe');
  frame.setAttribute('data-testid', 'print-frame');
  frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
  frame.onload = () => {
    try {
      frame.contentWindow?.focus();
      frame.contentWindow?.print();
    } catch {
      // A browser that will not print a PDF frame: show it instead.
      window.open(url, '_blank');
    }
  };
  frame.src = url;
  document.body.appendChild(frame);
  setTimeout(() => frame.remove(), KEEP_URL_MS);
}

/**
 * Fetches `/api/documents/...` with the bearer token (a plain link would send none) and opens it
 * as a blob URL: a download, a new tab and/or printing through a hidden frame. Throws on failure
 * so the caller shows the screen's own message.
 */
export async function openDocument(path: string, opts: OpenDocumentOptions = {}): Promise<void> {
  // Opened before the fetch, while the click still counts, so popup blockers let it through.
  const tab = opts.newTab ? window.open('', '_blank') : null;
  let url: string;
  let fileName: string;
  try {
    const doc = await fetchDocument(path, { download: opts.download });
    url = URL.createObjectURL(doc.blob);
    fileName = doc.fileName;
  } catch (err) {
    tab?.close();
    throw err;
  }
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
  if (opts.download) clickDownload(url, fileName);
  if (opts.newTab) {
    if (tab) tab.location.href = url;
    else if (!window.open(url, '_blank')) throw new Error('The new tab was blocked.');
  }
  if (opts.print) printInFrame(url);
}

/** Clicks a hidden link that downloads `url` under `name`. */
function clickDownload(url: string, name: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Hands a fetched file (an export, a return's JSON, a backup) to the browser under its name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  clickDownload(url, name);
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS);
}
