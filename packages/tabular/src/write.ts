import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { TableFormat } from './read';

export type ColumnType = 'text' | 'number' | 'date';
export type CellValue = string | number | Date | null | undefined;

/**
 * One column of an export. `number`: amounts and quantities, given as decimal strings or numbers,
 * written as numbers (CSV keeps the exact string). `date`: a Date (shown as its day in India) or a
 * plain 'YYYY-MM-DD', written dd-mm-yyyy in CSV and as a date cell in XLSX.
 */
export interface Column<T> {
  header: string;
  type?: ColumnType;
  /** XLSX number format, e.g. '0.00' for rupees. */
  numFmt?: string;
  width?: number;
  value: (row: T) => CellValue;
}

export interface TableWriter<T> {
  add(row: T): Promise<void>;
  end(): Promise<void>;
}

const IST_MS = 330 * 60_000;

/** The calendar day a value stands for, as UTC midnight: a Date by India's clock, a 'YYYY-MM-DD' as written. */
function dayOf(v: CellValue): Date | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return null;
    const ist = new Date(v.getTime() + IST_MS);
    return new Date(Date.UTC(ist.getUTCFullYear(), ist.getUTCMonth(), ist.getUTCDate()));
  }
  const s = String(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : dayOf(d);
}

/** dd-mm-yyyy, the way Indian paperwork writes a date. */
export function indianDate(v: CellValue): string {
  const d = dayOf(v);
  if (!d) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}-${p(d.getUTCMonth() + 1)}-${d.getUTCFullYear()}`;
}

/**
 * First characters that make a spreadsheet read a cell as a formula (OWASP ASVS 1.2.10, CWE-1236):
 * = + - @, tab, carriage return, NUL, and the full-width = + - @ some Excel locales treat alike.
 */
const FORMULA_START = /^[=+\-@\t\r\0\uFF1D\uFF0B\uFF0D\uFF20]/;
/** A number exactly as the writer prints it: the only thing a `number` cell may hold unguarded. */
const PLAIN_NUMBER = /^-?(\d+(\.\d+)?|\.\d+)$/;

/**
 * One CSV field (RFC 4180 quoting). Text that could start a formula gets a leading `'`, which
 * spreadsheets take as "this is text". A `number` cell holding a plain number (-150.00) is left
 * as it is, so the sheet and the GST portal read a number; anything else in it is text, guarded.
 */
export function csvCell(v: CellValue, type: ColumnType = 'text'): string {
  let s: string;
  if (type === 'date') s = indianDate(v);
  else if (v === null || v === undefined) s = '';
  else s = String(v);
  const numeric = type === 'number' && (typeof v === 'number' ? Number.isFinite(v) : PLAIN_NUMBER.test(s));
  if (!numeric && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * One CSV line ending in CRLF. `types[i]` is column i's type; without one a JS number is a number
 * and everything else text.
 */
export function csvLine(cells: readonly CellValue[], types?: readonly ColumnType[]): string {
  return cells.map((v, i) => csvCell(v, types?.[i] ?? (typeof v === 'number' ? 'number' : 'text'))).join(',') + '\r\n';
}

function xlsxCell(v: CellValue, type: ColumnType): string | number | Date | null {
  if (v === null || v === undefined || v === '') return null;
  if (type === 'date') return dayOf(v);
  if (type === 'number') {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : String(v);
  }
  return String(v);
}

/** Waits for a writable to take more when it asked to (the export never runs ahead of the client). */
function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', fail);
      resolve();
    };
    const fail = (e: Error) => {
      out.off('drain', done);
      out.off('close', done);
      reject(e);
    };
    out.once('drain', done);
    out.once('close', done);
    out.once('error', fail);
  });
}

/** CSV in UTF-8 with a BOM (Excel then reads the rupee sign and Hindi right), CRLF lines. */
export function csvWriter<T>(out: Writable, columns: Column<T>[]): TableWriter<T> {
  const types = columns.map((c) => c.type ?? 'text');
  out.write('\uFEFF' + csvLine(columns.map((c) => c.header), columns.map((): ColumnType => 'text')));
  return {
    async add(row) {
      if (!out.write(csvLine(columns.map((c) => c.value(row)), types))) await drained(out);
    },
    async end() {
      await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}

/** XLSX written as it goes (exceljs's streaming writer): each row is committed and let go. */
export function xlsxWriter<T>(out: Writable, columns: Column<T>[], sheetName = 'Sheet1'): TableWriter<T> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c, i) => ({
    key: `c${i}`,
    header: c.header,
    width: c.width ?? Math.max(10, Math.min(40, c.header.length + 4)),
    style: c.type === 'date' ? { numFmt: 'dd-mm-yyyy' } : c.numFmt ? { numFmt: c.numFmt } : {},
  }));
  ws.getRow(1).font = { bold: true };
  let n = 0;
  return {
    async add(row) {
      ws.addRow(columns.map((c) => xlsxCell(c.value(row), c.type ?? 'text'))).commit();
      if (++n % 200 === 0) await drained(out);
    },
    async end() {
      ws.commit();
      await wb.commit();
    },
  };
}

export function tableWriter<T>(format: TableFormat, out: Writable, columns: Column<T>[], sheetName?: string): TableWriter<T> {
  return format === 'xlsx' ? xlsxWriter(out, columns, sheetName) : csvWriter(out, columns);
}

export const CONTENT_TYPES: Record<TableFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** 'csv' | 'xlsx' from a query value (default csv); anything else is an error message. */
export function exportFormat(v: unknown): TableFormat {
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (s === '' || s === 'csv') return 'csv';
  if (s === 'xlsx') return 'xlsx';
  throw new Error('format must be csv or xlsx.');
}

/** A download's file name: base-YYYY-MM-DD.ext (India's day). */
export function exportFileName(base: string, format: TableFormat, now = new Date()): string {
  const d = new Date(now.getTime() + IST_MS).toISOString().slice(0, 10);
  return `${base}-${d}.${format}`;
}

/** An HTTP response (Node's or Express's): headers, then a body written as a stream. */
export interface DownloadResponse extends Writable {
  setHeader(name: string, value: string): unknown;
  statusCode: number;
}

/**
 * Streams a table as a download: headers first, then one row at a time from `rows` (a database
 * cursor), so the file is never built in memory. An error after the first byte ends the response
 * abruptly (the browser shows a failed download rather than a short file).
 */
export async function sendTable<T>(res: DownloadResponse, format: TableFormat, baseName: string, columns: Column<T>[], rows: AsyncIterable<T> | Iterable<T>, sheetName?: string): Promise<void> {
  res.statusCode = 200;
  res.setHeader('Content-Type', CONTENT_TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(baseName, format)}"`);
  res.setHeader('Cache-Control', 'no-store');
  const w = tableWriter(format, res, columns, sheetName);
  try {
    for await (const r of rows) {
      if (res.destroyed) return;
      await w.add(r);
    }
    await w.end();
  } catch (err) {
    res.destroy(err as Error);
    throw err;
  }
}
