import { isUtf8 } from 'node:buffer';
import Papa from 'papaparse';
import { TabularError, tooMany, type ReadLimits } from './limits';

/** One row of a sheet: its number as the file shows it (1 = the first line) and its cells as text. */
export interface TableRow {
  row: number;
  values: string[];
}

/** Bytes decoded at a time: the tokenizer sees pieces of this size, whatever the file's size. */
const STEP = 64 * 1024;

export const UTF8_ADVICE = 'Save the file as CSV UTF-8 and upload it again.';

/** The first line (1-based) holding bytes that are not UTF-8, shown as far as it can be read. */
function badLine(body: Buffer): string {
  let line = 1;
  for (let s = 0; s <= body.length; line++) {
    let e = body.indexOf(0x0a, s);
    if (e < 0) e = body.length;
    // A new line byte is never part of a longer UTF-8 sequence, so each line checks alone.
    const bytes = body.subarray(s, e);
    if (!isUtf8(bytes)) {
      const text = new TextDecoder('utf-8').decode(bytes).replace(/\r$/, '').trim();
      const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
      return `Line ${line} of the file is not UTF-8 text ("${shown}"). ${UTF8_ADVICE}`;
    }
    s = e + 1;
  }
  return `The file is not UTF-8 text. ${UTF8_ADVICE}`;
}

/**
 * The text of a CSV file, a piece at a time: UTF-8 with or without a BOM, UTF-16 LE/BE with a
 * BOM. Bytes that are not UTF-8 (a Latin-1 or ANSI file) are refused, naming the first bad line,
 * rather than read as replacement characters.
 */
export function* decodeText(buf: Buffer): Generator<string> {
  let encoding = 'utf-8';
  let start = 0;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
  else if (buf[0] === 0xff && buf[1] === 0xfe) [encoding, start] = ['utf-16le', 2];
  else if (buf[0] === 0xfe && buf[1] === 0xff) [encoding, start] = ['utf-16be', 2];
  const body = buf.subarray(start);
  if (encoding === 'utf-8' && !isUtf8(body)) throw new TabularError(badLine(body));
  const decoder = new TextDecoder(encoding);
  for (let i = 0; i < body.length; i += STEP) yield decoder.decode(body.subarray(i, i + STEP), { stream: true });
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** A UTF-16 file starts with its byte-order mark (it holds NUL bytes, unlike any other text). */
export const hasUtf16Bom = (head: Buffer) => (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const enum S {
  FieldStart,
  Unquoted,
  Quoted,
  /** A quote inside a quoted cell: the cell's end, or the first of two quotes. */
  QuoteInQuoted,
}

/**
 * An RFC 4180 reader that sees each character once (linear however the text is cut) and counts
 * as it goes, so a cell, a line or a row past its limit is refused before it is held whole:
 * quoted cells with delimiters, doubled quotes and line breaks; CRLF, LF or CR line ends; text
 * after a closing quote joins the cell (as Excel reads it).
 */
export class CsvTokenizer {
  private state = S.FieldStart;
  private field = '';
  private fieldChars = 0;
  private lineChars = 0;
  private record: string[] = [];
  private afterCR = false;
  /** Records ended so far (blank ones too): the row number the user sees, before any offset. */
  records = 0;
  private readonly delim: number;

  constructor(
    delimiter: string,
    private readonly limits: ReadLimits,
    private readonly rowOffset: number,
    private readonly emit: (values: string[], record: number) => void,
  ) {
    this.delim = delimiter.charCodeAt(0);
  }

  private take(text: string, a: number, b: number) {
    if (b <= a) return;
    this.fieldChars += b - a;
    this.lineChars += b - a;
    const row = this.records + 1 + this.rowOffset;
    if (this.fieldChars > this.limits.maxCellChars) throw new TabularError(tooMany.cell(this.limits, row));
    if (this.lineChars > this.limits.maxLineChars) throw new TabularError(tooMany.line(this.limits, row));
    this.field += text.slice(a, b);
  }

  private endField() {
    this.record.push(this.field);
    this.field = '';
    this.fieldChars = 0;
    this.state = S.FieldStart;
    if (this.record.length > this.limits.maxColumns) throw new TabularError(tooMany.columns(this.limits, this.records + 1 + this.rowOffset));
  }

  private endRecord() {
    this.endField();
    const values = this.record;
    this.record = [];
    this.lineChars = 0;
    this.records++;
    this.emit(values, this.records);
  }

  write(text: string): void {
    const n = text.length;
    let i = 0;
    while (i < n) {
      if (this.state === S.Quoted) {
        const q = text.indexOf('"', i);
        const end = q < 0 ? n : q;
        this.take(text, i, end);
        if (q < 0) return;
        this.lineChars++;
        this.state = S.QuoteInQuoted;
        i = q + 1;
        continue;
      }
      if (this.state === S.QuoteInQuoted) {
        if (text.charCodeAt(i) === QUOTE) {
          this.take(text, i, i + 1);
          this.state = S.Quoted;
          i++;
          continue;
        }
        this.state = S.Unquoted;
      }
      if (this.afterCR) {
        this.afterCR = false;
        if (text.charCodeAt(i) === LF) {
          i++;
          continue;
        }
      }
      if (this.state === S.FieldStart && text.charCodeAt(i) === QUOTE) {
        this.lineChars++;
        this.state = S.Quoted;
        i++;
        continue;
      }
      let j = i;
      const d = this.delim;
      for (; j < n; j++) {
        const c = text.charCodeAt(j);
        if (c === d || c === LF || c === CR) break;
      }
      this.take(text, i, j);
      this.state = S.Unquoted;
      if (j === n) return;
      const c = text.charCodeAt(j);
      i = j + 1;
      if (c === d) {
        this.lineChars++;
        this.endField();
      } else {
        this.endRecord();
        this.afterCR = c === CR;
      }
    }
  }

  /** The last record, when the text does not end with a line break. */
  end(): void {
    if (this.lineChars > 0 || this.record.length > 0 || this.state !== S.FieldStart) this.endRecord();
  }
}

/** The delimiter among , ; tab | that splits the first lines most consistently (papaparse's guess). */
function guessDelimiter(sample: string): string {
  const cut = sample.lastIndexOf('\n');
  const text = cut > 0 ? sample.slice(0, cut) : sample;
  const meta = Papa.parse(text, { delimitersToGuess: [',', ';', '\t', '|'], preview: 10 }).meta;
  return meta.delimiter || ',';
}

/**
 * The records of a CSV file with their numbers (the line number unless a quoted cell spans
 * lines), blank ones included so that they count toward the row limit; cells trimmed.
 */
export function* csvRecords(buf: Buffer, limits: ReadLimits): Generator<TableRow & { blank: boolean }> {
  const out: (TableRow & { blank: boolean })[] = [];
  let tok: CsvTokenizer | null = null;
  let offset = 0;
  for (let text of decodeText(buf)) {
    if (!tok) {
      // Excel quirks: a BOM (dropped by the decoder), and a first line "sep=;" naming the
      // delimiter (written by Excel in locales whose list separator is ';').
      let delimiter = '';
      const sep = /^sep=(.)\r?\n/i.exec(text);
      if (sep) {
        delimiter = sep[1]!;
        text = text.slice(sep[0].length);
        offset = 1;
      }
      const row0 = offset;
      tok = new CsvTokenizer(delimiter || guessDelimiter(text), limits, offset, (raw, n) => {
        const values = raw.map((v) => v.trim());
        out.push({ row: n + row0, values, blank: values.every((v) => v === '') });
      });
    }
    tok.write(text);
    yield* out.splice(0);
  }
  tok?.end();
  yield* out.splice(0);
}
