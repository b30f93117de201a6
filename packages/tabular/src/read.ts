import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';

export type TableFormat = 'csv' | 'xlsx';

/** One row of a sheet: its number as the file shows it (1 = the first line) and its cells as text. */
export interface TableRow {
  row: number;
  values: string[];
}

export interface OpenTable {
  format: TableFormat;
  /** The first non-empty row, trimmed. */
  headers: string[];
  headerRow: number;
  /** The rows after the header, empty rows left out, numbered as in the file. */
  rows: AsyncGenerator<TableRow>;
}

/** Input the readers refuse (not a spreadsheet, no header row): the message is for the user. */
export class TabularError extends Error {}

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * CSV or XLSX by content, not by name: an XLSX is a zip (PK\3\4); text without NUL bytes is CSV;
 * anything else (a PDF, an old binary .xls, an image) is refused.
 */
export function sniffFormat(head: Buffer): TableFormat {
  if (head.length >= 4 && ZIP_MAGIC.every((b, i) => head[i] === b)) return 'xlsx';
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0) throw new TabularError('This is an old Excel (.xls) file: save it as .xlsx or CSV and upload again.');
  if (head.subarray(0, 4096).includes(0)) throw new TabularError('This file is not a CSV or XLSX spreadsheet.');
  return 'csv';
}

/** Characters handed to the CSV parser at a time. */
const PIECE = 16 * 1024;

const isEmpty = (values: string[]) => values.every((v) => v === '');

/** A number as a person typed it: 15 significant digits (what Excel keeps), no float noise, no exponent for codes. */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return '';
  const clean = Number(n.toPrecision(15));
  if (Number.isInteger(clean) && Math.abs(clean) < 1e21) return BigInt(clean).toString();
  return String(clean);
}

/** One XLSX cell's value as text (rich text, formulas' results, hyperlinks' text, dates as YYYY-MM-DD). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('').trim();
    if ('result' in o) return cellText(o.result);
    if ('text' in o) return cellText(o.text);
  }
  return '';
}

function toStream(input: Buffer | Readable): Readable {
  return Buffer.isBuffer(input) ? Readable.from([input]) : input;
}

/** Reads the first bytes of a stream and gives back a stream that still starts with them. */
async function peek(input: Readable, n: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const it = input[Symbol.asyncIterator]();
  while (size < n) {
    const r = await it.next();
    if (r.done) break;
    const c = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    chunks.push(c);
    size += c.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value as Buffer;
    }
  }
  return { head, stream: Readable.from(rest()) };
}

async function* csvRows(input: Readable, head: Buffer): AsyncGenerator<TableRow> {
  // Excel quirks: a UTF-8 BOM, and a first line "sep=;" naming the delimiter (written by Excel in
  // locales whose list separator is ';').
  let text = head.toString('utf8', 0, Math.min(head.length, 64));
  let skip = text.charCodeAt(0) === 0xfeff ? 3 : 0;
  text = text.replace(/^\uFEFF/, '');
  let delimiter = '';
  const sep = /^sep=(.)\r?\n/i.exec(text);
  if (sep) {
    delimiter = sep[1]!;
    skip += Buffer.byteLength(sep[0]);
  }
  // Text goes to the parser in pieces of at most 16K characters, decoded here (a character split
  // between two chunks stays whole): papaparse rescans each piece it gets, so one large chunk
  // (a whole uploaded file) made a 20,000-row sheet take 20 s instead of 0.2 s.
  const body = new PassThrough({ objectMode: true });
  const decoder = new StringDecoder('utf8');
  let skipped = 0;
  const feed = (text: string) => {
    let ok = true;
    for (let i = 0; i < text.length; i += PIECE) ok = body.write(text.slice(i, i + PIECE)) && ok;
    return ok;
  };
  input.on('error', (e) => body.destroy(e));
  input.on('data', (c: Buffer) => {
    let chunk = c;
    if (skipped < skip) {
      const take = Math.min(skip - skipped, chunk.length);
      skipped += take;
      chunk = chunk.subarray(take);
    }
    if (chunk.length && !feed(decoder.write(chunk))) {
      input.pause();
      body.once('drain', () => input.resume());
    }
  });
  input.on('end', () => {
    feed(decoder.end());
    body.end();
  });
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, {
    delimiter,
    delimitersToGuess: [',', ';', '\t', '|'],
    skipEmptyLines: false,
  });
  body.pipe(parser);
  let row = sep ? 1 : 0;
  for await (const rec of parser as AsyncIterable<string[]>) {
    row++;
    const values = rec.map((v) => (typeof v === 'string' ? v.trim() : ''));
    if (isEmpty(values)) continue;
    yield { row, values };
  }
}

async function* xlsxRows(input: Readable): AsyncGenerator<TableRow> {
  // The first worksheet only; shared strings are cached (XLSX keeps them in one part), styles
  // too (a date cell is a number with a date format).
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'emit' });
  try {
    for await (const sheet of reader) {
      for await (const r of sheet) {
        const raw = (r.values as unknown[]) ?? [];
        const values: string[] = [];
        for (let i = 1; i < raw.length; i++) values.push(cellText(raw[i]));
        if (isEmpty(values)) continue;
        yield { row: r.number, values };
      }
      return;
    }
  } catch (err) {
    if (err instanceof TabularError) throw err;
    throw new TabularError(`This XLSX file cannot be read (${(err as Error).message}).`);
  }
}

/**
 * Opens a CSV or XLSX sheet (told apart by content) from a buffer or a stream and reads its header
 * row; the rows come one at a time, so a large file is never held as objects all at once.
 */
export async function openTable(input: Buffer | Readable): Promise<OpenTable> {
  const { head, stream } = await peek(toStream(input), 8192);
  if (!head.length) throw new TabularError('The file is empty.');
  const format = sniffFormat(head);
  const all = format === 'xlsx' ? xlsxRows(stream) : csvRows(stream, head);
  const first = await all.next();
  if (first.done) throw new TabularError('The file has no rows.');
  const headers = first.value.values.map((h) => h.trim());
  return { format, headers, headerRow: first.value.row, rows: all };
}
