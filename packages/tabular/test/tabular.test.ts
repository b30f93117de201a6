import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { checkMapping, guessMapping, mapRow, openTable, sniffFormat, TabularError, tableWriter, indianDate, type Column } from '../src';

async function all(rows: AsyncIterable<{ row: number; values: string[] }>) {
  const out: { row: number; values: string[] }[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/** An XLSX written by hand (not by exceljs): shared strings, an inline string, numbers, a gap row. */
async function handMadeXlsx(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
  );
  zip.file('_rels/.rels', `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`);
  zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Items" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  zip.file(
    'xl/sharedStrings.xml',
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4"><si><t>Item Name</t></si><si><t>MRP</t></si><si><t>Barcode</t></si><si><t>Basmati Rice 5kg</t></si></sst>`,
  );
  zip.file(
    'xl/worksheets/sheet1.xml',
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
      `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>` +
      `<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2"><v>612.5</v></c><c r="C2"><v>8901234567890</v></c></row>` +
      `<row r="4"><c r="A4" t="inlineStr"><is><t>Toor Dal 1kg</t></is></c><c r="B4"><v>0.30000000000000004</v></c></row>` +
      `</sheetData></worksheet>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('reading', () => {
  it('reads an XLSX made by another writer: shared and inline strings, numbers as typed, row numbers as in the file', async () => {
    const t = await openTable(await handMadeXlsx());
    expect(t.format).toBe('xlsx');
    expect(t.headers).toEqual(['Item Name', 'MRP', 'Barcode']);
    expect(t.headerRow).toBe(1);
    // Row 3 is missing in the sheet; the last row has no barcode cell; 0.1+0.2 noise is cut to 15 digits.
    expect(await all(t.rows)).toEqual([
      { row: 2, values: ['Basmati Rice 5kg', '612.5', '8901234567890'] },
      { row: 4, values: ['Toor Dal 1kg', '0.3'] },
    ]);
  });

  it('reads an Excel CSV: BOM, sep=; line, quoted cells with commas, quotes and new lines, blank lines keep numbering', async () => {
    const csv = '\uFEFFsep=;\r\nName;MRP;Note\r\n"Rice; Basmati";100.50;"say ""hi""\r\nsecond line"\r\n\r\n;;\r\nDal;90;\r\n';
    const t = await openTable(Buffer.from(csv, 'utf8'));
    expect(t.format).toBe('csv');
    expect(t.headers).toEqual(['Name', 'MRP', 'Note']);
    expect(t.headerRow).toBe(2);
    const rows = await all(t.rows);
    expect(rows.map((r) => r.values)).toEqual([
      ['Rice; Basmati', '100.50', 'say "hi"\r\nsecond line'],
      ['Dal', '90', ''],
    ]);
    // Records are numbered one a line: header 2, first item 3, blank 4, empty cells 5, Dal 6.
    expect(rows.map((r) => r.row)).toEqual([3, 6]);
  });

  it('guesses the delimiter (comma, semicolon, tab) and reads a stream in small chunks', async () => {
    const text = 'Item\tRate\n' + Array.from({ length: 500 }, (_, i) => `P${i}\t${i}.25`).join('\n');
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 97) }, (_, i) => bytes.subarray(i * 97, i * 97 + 97));
    const t = await openTable(Readable.from(chunks));
    expect(t.headers).toEqual(['Item', 'Rate']);
    const rows = await all(t.rows);
    expect(rows).toHaveLength(500);
    expect(rows[499]).toEqual({ row: 501, values: ['P499', '499.25'] });
  });

  it('keeps a Hindi or rupee character whole when a chunk boundary splits its bytes', async () => {
    const text = 'नाम,दर\n' + Array.from({ length: 200 }, (_, i) => `चावल ${i},₹${i}`).join('\n');
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    const t = await openTable(Readable.from(chunks));
    expect(t.headers).toEqual(['नाम', 'दर']);
    const rows = await all(t.rows);
    expect(rows[199]!.values).toEqual(['चावल 199', '₹199']);
  });

  it('reads 20,000 CSV rows from one buffer quickly (the parser gets small pieces)', async () => {
    const text = 'Name,MRP\n' + Array.from({ length: 20_000 }, (_, i) => `Item ${i},${i}.50`).join('\n');
    const t0 = performance.now();
    const t = await openTable(Buffer.from(text));
    expect((await all(t.rows)).length).toBe(20_000);
    // One 400 KB chunk took seconds before the input was cut into pieces.
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('tells the format by content and refuses what is not a sheet', () => {
    expect(sniffFormat(Buffer.from('PK\x03\x04rest'))).toBe('xlsx');
    expect(sniffFormat(Buffer.from('a,b\n1,2'))).toBe('csv');
    expect(() => sniffFormat(Buffer.from([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3]))).toThrow(TabularError);
    expect(() => sniffFormat(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toThrow(/old Excel/);
  });

  it('refuses an empty file and a broken XLSX with a sentence', async () => {
    await expect(openTable(Buffer.alloc(0))).rejects.toThrow('The file is empty.');
    await expect(openTable(Buffer.from('PK\x03\x04 not really a zip file at all'))).rejects.toThrow(TabularError);
  });
});

interface Line {
  name: string;
  mrp: string;
  day: Date;
  qty: number;
}
const cols: Column<Line>[] = [
  { header: 'Name', value: (l) => l.name },
  { header: 'MRP', type: 'number', numFmt: '0.00', value: (l) => l.mrp },
  { header: 'Date', type: 'date', value: (l) => l.day },
  { header: 'Qty', type: 'number', value: (l) => l.qty },
];

async function written(format: 'csv' | 'xlsx', rows: Line[]): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const w = tableWriter(format, out, cols, 'Products');
  for (const r of rows) await w.add(r);
  await w.end();
  return Buffer.concat(chunks);
}

describe('writing', () => {
  // 2026-03-31T20:00Z is 1 April 01:30 in India: the row's day is 01-04-2026.
  const late = new Date('2026-03-31T20:00:00Z');
  const rows: Line[] = [
    { name: 'Rice, "Basmati"', mrp: '612.50', day: late, qty: 3 },
    { name: '=cmd()', mrp: '0.05', day: new Date('2026-01-15T06:00:00Z'), qty: 1.5 },
  ];

  it('writes CSV with a BOM, a header row, Indian dates, exact amounts and formula-safe text', async () => {
    const text = (await written('csv', rows)).toString('utf8');
    expect(text).toBe('\uFEFFName,MRP,Date,Qty\r\n"Rice, ""Basmati""",612.50,01-04-2026,3\r\n\'=cmd(),0.05,15-01-2026,1.5\r\n');
  });

  it('writes XLSX with numbers as numbers and dates as date cells, readable by exceljs and by our reader', async () => {
    const buf = await written('xlsx', rows);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as never);
    const ws = wb.getWorksheet('Products')!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Name', 'MRP', 'Date', 'Qty']);
    expect(ws.getCell('B2').value).toBe(612.5);
    expect(ws.getCell('B2').numFmt).toBe('0.00');
    expect(ws.getCell('C2').value).toEqual(new Date(Date.UTC(2026, 3, 1)));
    expect(ws.getCell('D3').value).toBe(1.5);
    const t = await openTable(buf);
    expect(t.headers).toEqual(['Name', 'MRP', 'Date', 'Qty']);
    expect((await all(t.rows)).map((r) => r.values)).toEqual([
      ['Rice, "Basmati"', '612.5', '2026-04-01', '3'],
      ['=cmd()', '0.05', '2026-01-15', '1.5'],
    ]);
  });

  it('formats Indian dates from plain days and instants', () => {
    expect(indianDate('2026-02-28')).toBe('28-02-2026');
    expect(indianDate(new Date('2026-02-28T18:29:59Z'))).toBe('28-02-2026');
    expect(indianDate(new Date('2026-02-28T18:30:00Z'))).toBe('01-03-2026');
    expect(indianDate(null)).toBe('');
  });
});

describe('mapping', () => {
  const fields = [
    { key: 'name', label: 'Product name', required: true, aliases: ['Item Name', 'Product', 'Item'] },
    { key: 'mrp', label: 'MRP', required: true, aliases: ['Rate', 'Selling Price'] },
    { key: 'cp', label: 'Cost', aliases: ['Purchase Price', 'CP'] },
    { key: 'tax', label: 'GST %', aliases: ['Tax', 'GST'] },
  ];
  it('guesses columns from common header names, exact first, one column per field', () => {
    expect(guessMapping(['Sr', 'ITEM NAME', 'M.R.P.', 'Purchase price (Rs)', 'GST %'], fields)).toEqual({ name: 1, mrp: 2, cp: 3, tax: 4 });
    expect(guessMapping(['Product', 'Rate'], fields)).toEqual({ name: 0, mrp: 1 });
  });
  it('checks a mapping sent back and maps a row', () => {
    expect(checkMapping({ name: 0 }, fields, 3)).toBe('Choose a column for MRP.');
    expect(checkMapping({ name: 0, mrp: 0 }, fields, 3)).toBe('Product name and MRP cannot both come from the same column.');
    expect(checkMapping({ name: 0, mrp: 5 }, fields, 3)).toBe('The column for MRP is not a column of the file.');
    expect(checkMapping({ name: 0, mrp: 1, colour: 2 }, fields, 3)).toBe('Unknown field in mapping: colour.');
    expect(checkMapping({ name: 0, mrp: 1, cp: -1 }, fields, 3)).toBeNull();
    expect(mapRow(['Rice', '100'], { name: 0, mrp: 1, cp: 2 })).toEqual({ name: 'Rice', mrp: '100', cp: '' });
  });
});
