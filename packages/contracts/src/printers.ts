// Network thermal printers of a company (identity holds them; documents prints to them). Issue 28.

export const PrinterWidths = [58, 80] as const;
export type PrinterWidth = (typeof PrinterWidths)[number];
/** The code page the printer's text is sent in (Latin text; Hindi goes as a raster image whatever this is). */
export const PrinterEncodings = ['cp437', 'cp858', 'windows1252'] as const;
export type PrinterEncoding = (typeof PrinterEncodings)[number];
export const DEFAULT_PRINTER_PORT = 9100;
export const MAX_PRINTERS = 20;

export interface NetworkPrinter {
  id: number;
  name: string;
  host: string;
  port: number;
  width: PrinterWidth;
  encoding: PrinterEncoding;
}

/** GET /printers (any position) and the reply of PUT /printers. */
export interface PrintersReply {
  printers: NetworkPrinter[];
}
/** PUT /printers (managers): the whole list; an entry without id gets the next free one; port defaults to 9100, width to 80, encoding to cp437. */
export interface SetPrintersRequest {
  printers: (Partial<Omit<NetworkPrinter, 'name' | 'host'>> & { name: string; host: string })[];
}

/** POST /print/bill/{saleId}: sends the bill to one of the company's printers. */
export interface PrintBillRequest {
  printer_id: number;
  /** en or hi; absent: the company's document language. Hindi goes as a raster image. */
  lang?: string;
}
export interface PrintBillReply {
  ok: true;
}

/** Milliseconds documents waits for a printer before answering 502. */
export const PRINTER_TIMEOUT_MS = 3000;

function ipv4(host: string): number[] | null {
  const parts = host.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return null;
  return parts.map(Number);
}

/**
 * Null when `host` is an IP address on the loopback or a private network (127/8, 10/8,
 * 172.16/12, 192.168/16, ::1); else why not. Names are refused: one could resolve to the internet,
 * and the server must never be made to send bytes there.
 */
export function printerHostProblem(host: string): string | null {
  if (host === '::1') return null;
  const ip = ipv4(host);
  if (!ip) return `The printer's address "${host}" must be an IP address on the shop's network, like 192.168.1.50.`;
  const [a, b] = ip as [number, number, number, number];
  const ok = a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  return ok ? null : `The printer's address ${host} is not on the shop's own network; use its local address (10.x.x.x, 172.16-31.x.x, 192.168.x.x).`;
}
