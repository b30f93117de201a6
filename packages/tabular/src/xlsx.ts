// XLSX read from the uploaded bytes through the zip's central directory (yauzl) and streamed
// XML (saxes): no temporary file, the parts read in the order they are needed whatever their
// order in the zip, every part's unpacked size known (and enforced) before it is inflated.
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { TableRow } from './csv';
import { sizeText, TabularError, tooMany, type ReadLimits } from './limits';

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

/** Excel's built-in number formats that show dates or times (the others are numbers). */
const BUILTIN_DATE_FORMATS: Record<number, string> = {
  14: 'mm-dd-yy', 15: 'd-mmm-yy', 16: 'd-mmm', 17: 'mmm-yy', 18: 'h:mm AM/PM', 19: 'h:mm:ss AM/PM',
  20: 'h:mm', 21: 'h:mm:ss', 22: 'm/d/yy h:mm', 45: 'mm:ss', 46: '[h]:mm:ss', 47: 'mmss.0',
};

/** A number format shows a date when it has date or time letters outside quotes and brackets. */
export function isDateFormat(code: string | undefined): boolean {
  if (!code) return false;
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** Excel's day number (1900 or 1904 system) as a date. */
const excelDate = (v: number, date1904: boolean) => new Date(Math.round((v - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));

const local = (name: string) => name.slice(name.indexOf(':') + 1);

interface Zip {
  file: ZipFile;
  parts: Map<string, Entry>;
}

const fail = (err: unknown): never => {
  if (err instanceof TabularError) throw err;
  throw new TabularError(`This XLSX file cannot be read (${(err as Error).message}).`);
};

/** The zip's central directory, each part's sizes checked before anything is inflated. */
async function openZip(buf: Buffer, limits: ReadLimits): Promise<Zip> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z!))),
  );
  const parts = new Map<string, Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    file.on('error', reject);
    file.on('end', () => resolve());
    file.on('entry', (e: Entry) => {
      if (parts.size >= 10_000) return reject(new TabularError('This XLSX file has more than 10,000 parts; it is not a sheet Excel writes.'));
      const size = e.uncompressedSize;
      if (size > limits.ratioFreeBytes && size > limits.maxRatio * Math.max(1, e.compressedSize)) {
        return reject(
          new TabularError(
            `A part of this XLSX file (${e.fileName}) expands from ${sizeText(e.compressedSize)} to ${sizeText(size)}, more than ${limits.maxRatio} times (the limit for parts over ${sizeText(limits.ratioFreeBytes)}). Save the sheet as CSV and upload that.`,
          ),
        );
      }
      total += size;
      if (total > limits.maxUnpackedBytes) return reject(new TabularError(`This XLSX file unpacks to more than ${sizeText(limits.maxUnpackedBytes)} (the limit); split it into smaller files.`));
      // Part names are case-insensitive (OPC); a leading slash is not part of the name.
      if (!e.fileName.endsWith('/')) parts.set(e.fileName.replace(/^\/+/, '').toLowerCase(), e);
      file.readEntry();
    });
    file.readEntry();
  });
  return { file, parts };
}

/** A part's text, a piece at a time, inflated as it is read (yauzl refuses more bytes than the directory said). */
async function* partText(zip: Zip, entry: Entry): AsyncGenerator<string> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) => zip.file.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s!))));
  const decoder = new StringDecoder('utf8');
  for await (const chunk of stream) {
    const text = decoder.write(chunk as Buffer);
    if (text) yield text;
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

interface XmlHandlers {
  open?(tag: SaxesTagPlain, name: string): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** Parses one part with saxes, calling `after` between pieces (to hand rows on while the part is read). */
async function* xmlPart(zip: Zip, name: string, h: XmlHandlers): AsyncGenerator<void> {
  const entry = zip.parts.get(name);
  if (!entry) return;
  const p = new SaxesParser();
  if (h.open) p.on('opentag', (t) => h.open!(t as SaxesTagPlain, local(t.name)));
  if (h.close) p.on('closetag', (t) => h.close!(local(t.name)));
  if (h.text) {
    p.on('text', h.text);
    p.on('cdata', h.text);
  }
  for await (const piece of partText(zip, entry)) {
    p.write(piece);
    yield;
  }
  p.close();
}

async function readPart(zip: Zip, name: string, h: XmlHandlers): Promise<void> {
  for await (const _ of xmlPart(zip, name, h));
}

/** A relationship's target as a part name, relative to the part that names it. */
function resolvePart(fromPart: string, target: string): string {
  const parts = target.startsWith('/') ? [] : fromPart.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg && seg !== '.') parts.push(seg);
  }
  return parts.join('/').toLowerCase();
}

/** The relationships of a part: id -> { type, target part }. */
async function relsOf(zip: Zip, part: string): Promise<Map<string, { type: string; target: string }>> {
  const slash = part.lastIndexOf('/');
  const relsName = `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
  const out = new Map<string, { type: string; target: string }>();
  await readPart(zip, relsName, {
    open(t, name) {
      if (name !== 'Relationship' || t.attributes.TargetMode === 'External') return;
      out.set(t.attributes.Id ?? '', { type: t.attributes.Type ?? '', target: resolvePart(part, t.attributes.Target ?? '') });
    },
  });
  return out;
}

const byType = (rels: Map<string, { type: string; target: string }>, type: string) => [...rels.values()].find((r) => r.type.endsWith(`/${type}`))?.target;

/** The first sheet's part, the shared strings' and the styles' parts, and the date system. */
async function workbookOf(zip: Zip) {
  const root = await relsOf(zip, '');
  const book = byType(root, 'officeDocument') ?? 'xl/workbook.xml';
  if (!zip.parts.has(book)) throw new TabularError('This XLSX file has no workbook; save it again from Excel and upload it.');
  const rels = await relsOf(zip, book);
  const sheetIds: string[] = [];
  let date1904 = false;
  await readPart(zip, book, {
    open(t, name) {
      if (name === 'workbookPr') date1904 = ['1', 'true'].includes(t.attributes.date1904 ?? '');
      if (name === 'sheet') {
        const id = Object.entries(t.attributes).find(([k]) => k.includes(':') && local(k) === 'id')?.[1];
        if (id) sheetIds.push(id);
      }
    },
  });
  // The first tab that is a worksheet (a chart sheet has no cells).
  const sheet =
    sheetIds.map((id) => rels.get(id)).find((r) => r?.type.endsWith('/worksheet') && zip.parts.has(r.target))?.target ??
    [...zip.parts.keys()].filter((k) => /^xl\/worksheets\/[^/]+\.xml$/.test(k)).sort()[0];
  if (!sheet) throw new TabularError('This XLSX file has no worksheet.');
  return { sheet, strings: byType(rels, 'sharedStrings') ?? 'xl/sharedstrings.xml', styles: byType(rels, 'styles') ?? 'xl/styles.xml', date1904 };
}

/** The shared strings (text of each <si>, phonetic runs left out), within the limits. */
async function sharedStrings(zip: Zip, part: string, limits: ReadLimits): Promise<string[]> {
  const out: string[] = [];
  let chars = 0;
  let cur: string | null = null;
  let inT = false;
  let phonetic = 0;
  await readPart(zip, part, {
    open(_t, name) {
      if (name === 'si') cur = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't' && !phonetic) inT = true;
    },
    close(name) {
      if (name === 'si' && cur !== null) {
        out.push(cur.trim());
        // Each string costs its characters and a slot: many empty strings are bounded too.
        chars += cur.length + 16;
        if (chars > limits.maxSharedChars) throw new TabularError(`The text of this XLSX file is more than ${sizeText(limits.maxSharedChars)} (the limit); split it into smaller files.`);
        cur = null;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inT = false;
    },
    text(t) {
      if (!inT || cur === null) return;
      cur += t;
      if (cur.length > limits.maxCellChars) throw new TabularError(`A cell of this file is longer than ${limits.maxCellChars.toLocaleString('en-IN')} characters, the most a cell may hold.`);
    },
  });
  return out;
}

/** For each cell style index, whether its number format shows a date. */
async function dateStyles(zip: Zip, part: string): Promise<boolean[]> {
  const formats = new Map<number, string>(Object.entries(BUILTIN_DATE_FORMATS).map(([k, v]) => [Number(k), v]));
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await readPart(zip, part, {
    open(t, name) {
      if (name === 'numFmt') formats.set(Number(t.attributes.numFmtId), t.attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfFormats.push(Number(t.attributes.numFmtId ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return xfFormats.map((id) => isDateFormat(formats.get(id)));
}

/** Column number (1 = A) of a cell reference like "AB12"; 0 when it has no letters. */
function columnOf(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i) & ~0x20;
    if (c < 65 || c > 90) break;
    col = col * 26 + (c - 64);
  }
  return col;
}

/**
 * The records (rows present in the sheet, empty ones too) of the first worksheet, each with the
 * sheet's row number, cells as text the way `cellText` gives them.
 */
export async function* xlsxRecords(buf: Buffer, limits: ReadLimits): AsyncGenerator<TableRow & { blank: boolean }> {
  let zip: Zip;
  try {
    zip = await openZip(buf, limits);
  } catch (err) {
    return fail(err);
  }
  try {
    const book = await workbookOf(zip);
    const strings = await sharedStrings(zip, book.strings, limits);
    const dates = await dateStyles(zip, book.styles);
    const out: (TableRow & { blank: boolean })[] = [];
    let rowNo = 0;
    let cells: string[] = [];
    let rowChars = 0;
    let col = 0;
    let type = 'n';
    let style = 0;
    let value = '';
    let collecting = false;
    let inIs = false;
    let phonetic = 0;
    const grow = (n: number) => {
      if (n > limits.maxCellChars) throw new TabularError(tooMany.cell(limits, rowNo));
    };
    const parse = xmlPart(zip, book.sheet, {
      open(t, name) {
        const a = t.attributes;
        if (name === 'row') {
          rowNo = a.r ? Number(a.r) : rowNo + 1;
          cells = [];
          rowChars = 0;
          col = 0;
        } else if (name === 'c') {
          const c = a.r ? columnOf(a.r) : 0;
          col = c > 0 ? c : col + 1;
          if (col > limits.maxColumns) throw new TabularError(tooMany.columns(limits, rowNo));
          type = a.t ?? 'n';
          style = Number(a.s ?? 0);
          value = '';
        } else if (name === 'v') collecting = true;
        else if (name === 'is') inIs = true;
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && inIs && !phonetic) collecting = true;
      },
      text(t) {
        if (!collecting) return;
        value += t;
        grow(value.length);
      },
      close(name) {
        if (name === 'v' || name === 't') collecting = false;
        else if (name === 'is') inIs = false;
        else if (name === 'rPh') phonetic--;
        else if (name === 'c') {
          let text = '';
          if (type === 's') text = strings[Number(value)] ?? '';
          else if (type === 'str' || type === 'inlineStr') text = value.trim();
          else if (type === 'b') text = value === '' ? '' : Number(value) !== 0 ? 'TRUE' : 'FALSE';
          else if (type === 'e') text = '';
          else if (type === 'd') text = cellText(new Date(value));
          else if (value !== '') text = dates[style] ? cellText(excelDate(Number(value), book.date1904)) : numberText(Number(value));
          grow(text.length);
          rowChars += text.length;
          if (rowChars > limits.maxLineChars) throw new TabularError(tooMany.line(limits, rowNo));
          cells[col - 1] = text;
        } else if (name === 'row') {
          const values = Array.from(cells, (v) => v ?? '');
          out.push({ row: rowNo, values, blank: values.every((v) => v === '') });
        }
      },
    });
    for await (const _ of parse) yield* out.splice(0);
    yield* out.splice(0);
  } catch (err) {
    fail(err);
  }
}
