// XLSX files written part by part with JSZip (another writer than ours), in any part order.
import JSZip from 'jszip';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const x = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export interface Book {
  /** The worksheet's <sheetData> content. */
  sheetData: string;
  /** Shared strings (plain text, or an <si> body given as { xml }). */
  strings?: (string | { xml: string })[];
  /** Custom number formats and the cell styles' format ids (style index = position). */
  numFmts?: { id: number; code: string }[];
  cellXfs?: number[];
  date1904?: boolean;
  /** One tab only (no second sheet "Notes" in the file). */
  single?: boolean;
}

/** The parts of a one-sheet workbook (plus a second sheet that must not be read), by part name. */
export function bookParts(b: Book): Record<string, string> {
  const strings = b.strings ?? [];
  const parts: Record<string, string> = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    // The tab order names "Items" (sheet2.xml's relationship rId3) first: the reader follows the tabs, not file names.
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr${b.date1904 ? ' date1904="1"' : ''}/><sheets><sheet name="Items" sheetId="2" r:id="rId3"/><sheet name="Notes" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="${REL}/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId4" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Not this sheet</t></is></c></row></sheetData></worksheet>`,
    'xl/worksheets/sheet2.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${NS}"><sheetData>${b.sheetData}</sheetData></worksheet>`,
    'xl/sharedStrings.xml': `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${NS}" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si>${typeof s === 'string' ? `<t xml:space="preserve">${x(s)}</t>` : s.xml}</si>`).join('')}</sst>`,
    'xl/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${NS}">${b.numFmts?.length ? `<numFmts count="${b.numFmts.length}">${b.numFmts.map((f) => `<numFmt numFmtId="${f.id}" formatCode="${x(f.code).replace(/"/g, '&quot;')}"/>`).join('')}</numFmts>` : ''}<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="${(b.cellXfs ?? [0]).length}">${(b.cellXfs ?? [0]).map((id) => `<xf numFmtId="${id}" xfId="0"/>`).join('')}</cellXfs></styleSheet>`,
  };
  if (b.single) {
    delete parts['xl/worksheets/sheet1.xml'];
    parts['xl/workbook.xml'] = parts['xl/workbook.xml']!.replace('<sheet name="Notes" sheetId="1" r:id="rId1"/>', '');
    parts['xl/_rels/workbook.xml.rels'] = parts['xl/_rels/workbook.xml.rels']!.replace(/<Relationship Id="rId1" [^>]*\/>/, '');
    parts['[Content_Types].xml'] = parts['[Content_Types].xml']!.replace('<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>', '');
  }
  return parts;
}

/** A zip of the parts in the order given (JSZip writes them in insertion order). */
export async function zipInOrder(parts: Record<string, string>, order: string[] = Object.keys(parts), level = 6): Promise<Buffer> {
  const zip = new JSZip();
  for (const name of order.filter((n) => n in parts)) zip.file(name, parts[name]!, { createFolders: false });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level } });
}

/** The names of a zip's parts in the order its central directory lists them. */
export function zipOrder(buf: Buffer): string[] {
  const names: string[] = [];
  for (let i = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); i >= 0; i = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), i + 4)) {
    const len = buf.readUInt16LE(i + 28);
    names.push(buf.toString('utf8', i + 46, i + 46 + len));
  }
  return names;
}

/** Rewrites a part's uncompressed size in both headers (a file that lies about how much it unpacks to). */
export function lieAboutSize(buf: Buffer, part: string, size: number): Buffer {
  const out = Buffer.from(buf);
  const name = Buffer.from(part);
  for (let i = out.indexOf(name); i >= 0; i = out.indexOf(name, i + 1)) {
    if (out.readUInt32LE(i - 46) === 0x02014b50) out.writeUInt32LE(size, i - 46 + 24);
    else if (out.readUInt32LE(i - 30) === 0x04034b50) out.writeUInt32LE(size, i - 30 + 22);
  }
  return out;
}
