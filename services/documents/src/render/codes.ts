import { DOMImplementation, XMLSerializer } from '@xmldom/xmldom';
import JsBarcode from 'jsbarcode';
import QRCode from 'qrcode';

/** A rendered code: the SVG markup and exactly what it encodes (kept for tests and data-payload). */
export interface Code {
  svg: string;
  payload: string;
}

/** CODE128 barcode as SVG markup, drawn on the server (no script runs in the page). */
export function barcodeSvg(payload: string, opts: { height?: number; width?: number; fontSize?: number } = {}): Code {
  const document = new DOMImplementation().createDocument('http://www.w3.org/1999/xhtml', 'html', null);
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  JsBarcode(svg, payload, {
    xmlDocument: document,
    format: 'CODE128',
    height: opts.height ?? 40,
    width: opts.width ?? 1.5,
    fontSize: opts.fontSize ?? 12,
    margin: 2,
    displayValue: true,
    font: 'Noto Sans',
  });
  svg.setAttribute('data-payload', payload);
  svg.setAttribute('class', 'barcode');
  return { svg: new XMLSerializer().serializeToString(svg), payload };
}

/** QR code as SVG markup. */
export async function qrSvg(payload: string, opts: { margin?: number } = {}): Promise<Code> {
  const svg = await QRCode.toString(payload, { type: 'svg', errorCorrectionLevel: 'M', margin: opts.margin ?? 1 });
  return { svg: svg.replace('<svg ', `<svg class="qr" data-payload="${escapeAttr(payload)}" `), payload };
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * A UPI payment link (NPCI's upi://pay): payee address, payee name, amount in rupees with 2
 * decimals, INR, and a note naming the document.
 */
export function upiUri(p: { upiId: string; payeeName: string; amount: string; note: string }): string {
  const q = new URLSearchParams({ pa: p.upiId, pn: p.payeeName, am: p.amount, cu: 'INR', tn: p.note });
  return `upi://pay?${q.toString().replace(/\+/g, '%20')}`;
}
