import type { Readable } from 'node:stream';
import { csvRecords, hasUtf16Bom, type TableRow } from './csv';
import { limitsOf, TabularError, tooMany, type ReadLimits } from './limits';
import { xlsxRecords } from './xlsx';

export { cellText, numberText } from './xlsx';
export { TabularError } from './limits';
export type { TableRow } from './csv';

export type TableFormat = 'csv' | 'xlsx';

export interface OpenTable {
  format: TableFormat;
  /** The first non-empty row, trimmed. */
  headers: string[];
  headerRow: number;
  /** The rows after the header, empty rows left out, numbered as in the file. */
  rows: AsyncGenerator<TableRow>;
}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * CSV or XLSX by content, not by name: an XLSX is a zip (PK\3\4); text without NUL bytes (or
 * UTF-16 with its byte-order mark) is CSV; anything else (a PDF, an old binary .xls, an image) is
 * refused.
 */
export function sniffFormat(head: Buffer): TableFormat {
  if (head.length >= 4 && ZIP_MAGIC.every((b, i) => head[i] === b)) return 'xlsx';
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0) throw new TabularError('This is an old Excel (.xls) file: save it as .xlsx or CSV and upload again.');
  if (hasUtf16Bom(head)) return 'csv';
  if (head.subarray(0, 4096).includes(0)) throw new TabularError('This file is not a CSV or XLSX spreadsheet.');
  return 'csv';
}

async function toBuffer(input: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(input)) return input;
  const chunks: Buffer[] = [];
  for await (const c of input) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * Opens a CSV or XLSX sheet (told apart by content) and reads its header row; the rows come one
 * at a time. Every limit of `limits` is enforced while reading, before a long cell, a wide row or
 * a flood of blank lines is held or worked through: the rows count blank ones too. This reads in
 * the calling thread; uploads go through `readInWorker`.
 */
export async function openTable(input: Buffer | Readable, limitsIn?: Partial<ReadLimits>): Promise<OpenTable> {
  const buf = await toBuffer(input);
  if (!buf.length) throw new TabularError('The file is empty.');
  const format = sniffFormat(buf.subarray(0, 8192));
  const limits = limitsOf(limitsIn);
  const records = format === 'xlsx' ? xlsxRecords(buf, limits) : csvRecords(buf, limits);
  // Records are pulled by hand: a for-of left with break would close the reader.
  const next = async () => (await records.next()) as IteratorResult<TableRow & { blank: boolean }>;
  let seen = 0;
  let first: TableRow | null = null;
  for (let r = await next(); !r.done; r = await next()) {
    // Every record but the header counts, blank ones (before the header too) included.
    if (++seen > limits.maxRows + 1) throw new TabularError(tooMany.rows(limits));
    if (!r.value.blank) {
      first = r.value;
      break;
    }
  }
  if (!first) throw new TabularError('The file has no rows.');
  async function* rows(): AsyncGenerator<TableRow> {
    for (let r = await next(); !r.done; r = await next()) {
      if (++seen > limits.maxRows + 1) throw new TabularError(tooMany.rows(limits));
      if (!r.value.blank) yield { row: r.value.row, values: r.value.values };
    }
  }
  return { format, headers: first.values.map((h) => h.trim()), headerRow: first.row, rows: rows() };
}
