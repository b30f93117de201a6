// The reader against hostile and unusual files: every limit refused with a sentence naming it,
// in time linear in the file; every valid XLSX part order; the encodings a shop's PC writes.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { openTable, readInWorker, TabularError, type TableRow } from '../src';
import { bookParts, lieAboutSize, zipInOrder, zipOrder } from './xlsx-fixtures';

async function all(rows: AsyncIterable<TableRow>) {
  const out: TableRow[] = [];
  for await (const r of rows) out.push(r);
  return out;
}
/** Opens and reads every row; resolves with the rows or rejects with the reader's sentence. */
const readAll = async (buf: Buffer, limits = {}) => {
  const t = await openTable(buf, limits);
  return { t, rows: await all(t.rows) };
};
const LIMITS = { maxRows: 100_000 };
const time = async <T>(fn: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await fn().catch((e: unknown) => e as Error);
  return { value, ms: performance.now() - t0 };
};

describe('CSV limits', () => {
  it('counts blank lines toward the 100,000-row limit: a header, 100,001 blank lines and one row are refused', async () => {
    const csv = Buffer.from(`Name,Mobile\n${'\n'.repeat(100_001)}Asha,9876500001\n`);
    await expect(readAll(csv, LIMITS)).rejects.toThrow(new TabularError('The file has more than 1,00,000 rows (blank lines count too); split it into smaller files.'));
    // 99,999 blank lines and the row are 100,000 records after the header: accepted.
    const ok = await readAll(Buffer.from(`Name,Mobile\n${'\n'.repeat(99_999)}Asha,9876500001\n`), LIMITS);
    expect(ok.rows).toEqual([{ row: 100_001, values: ['Asha', '9876500001'] }]);
  });

  it('refuses 19 MB of blank lines in seconds, not minutes (no re-splitting)', async () => {
    const { value, ms } = await time(() => readAll(Buffer.from(`Name\n${'\n'.repeat(19 * 1024 * 1024)}`), LIMITS));
    expect(value).toEqual(new TabularError('The file has more than 1,00,000 rows (blank lines count too); split it into smaller files.'));
    // About 1.5 s on a quiet machine; over 15 minutes before. Generous: the machine running tests is shared.
    expect(ms).toBeLessThan(15_000);
  });

  it('reads a header, 65,536 blank lines and one row in linear time (the ledger stalled 9.2 s on it)', async () => {
    const { value, ms } = await time(() => readAll(Buffer.from(`Name,Mobile\n${'\n'.repeat(65_536)}Asha,9876500001\n`), LIMITS));
    expect(value).toMatchObject({ rows: [{ row: 65_538, values: ['Asha', '9876500001'] }] });
    // Twice the blank lines take about twice the time, not four times.
    const { ms: ms2 } = await time(() => readAll(Buffer.from(`Name,Mobile\n${'\n'.repeat(2 * 65_536)}`), { maxRows: 200_000 }));
    expect(ms).toBeLessThan(5000);
    expect(ms2).toBeLessThan(Math.max(4 * ms, 5000));
  });

  it('refuses a 12 MB cell, quoted or not, naming the 32,768-character limit, without holding it', async () => {
    const big = 'x'.repeat(12 * 1024 * 1024);
    for (const cell of [big, `"${big}"`]) {
      const { value, ms } = await time(() => readAll(Buffer.from(`Name,Note\nAsha,${cell}\n`)));
      expect(value).toEqual(new TabularError('Row 2 has a cell longer than 32,768 characters, the most a cell may hold.'));
      expect(ms).toBeLessThan(5000);
    }
    // 32,768 characters are fine.
    const ok = await readAll(Buffer.from(`Name,Note\nAsha,${'y'.repeat(32_768)}\n`));
    expect(ok.rows[0]!.values[1]).toHaveLength(32_768);
  });

  it('refuses a line over 1 MB and a row of cells spread over quoted line breaks', async () => {
    const line = Array.from({ length: 100 }, () => 'abcdefghi'.repeat(1200)).join(',');
    await expect(readAll(Buffer.from(`a,b\n1,2\n${line}\n`))).rejects.toThrow(new TabularError('Row 3 is longer than 1 MB, the most a row may hold.'));
    const multiline = `"${'line\n'.repeat(6000)}"`;
    const row = Array.from({ length: 40 }, () => multiline).join(',');
    await expect(readAll(Buffer.from(`a\n${row}\n`))).rejects.toThrow('Row 2 is longer than 1 MB');
  });

  it('refuses a header of 600,000 columns quickly, naming the 16,384-column limit; 16,384 columns are fine', async () => {
    const { value, ms } = await time(() => readAll(Buffer.from(`${'h,'.repeat(600_000)}h\n1\n`)));
    expect(value).toEqual(new TabularError('Row 1 has more than 16,384 columns, the most a sheet may have.'));
    expect(ms).toBeLessThan(5000);
    const ok = await readAll(Buffer.from(`${Array.from({ length: 16_384 }, (_, i) => `c${i}`).join(',')}\n1\n`));
    expect(ok.t.headers).toHaveLength(16_384);
  });
});

describe('encodings', () => {
  const text = 'Name,City\nCafé Noël,Pune\nचावल,₹ Mumbai\n';
  const expected = [
    { row: 2, values: ['Café Noël', 'Pune'] },
    { row: 3, values: ['चावल', '₹ Mumbai'] },
  ];

  it('reads UTF-8 with and without a byte-order mark', async () => {
    for (const buf of [Buffer.from(text), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])]) {
      const { t, rows } = await readAll(buf);
      expect(t.headers).toEqual(['Name', 'City']);
      expect(rows).toEqual(expected);
    }
  });

  it('reads UTF-16 little- and big-endian with a byte-order mark (they were refused as "not a CSV")', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
    for (const buf of [le, be]) {
      const { t, rows } = await readAll(buf);
      expect(t.format).toBe('csv');
      expect(t.headers).toEqual(['Name', 'City']);
      expect(rows).toEqual(expected);
    }
  });

  it('refuses a Latin-1 file, naming its first bad line, instead of reading "Caf� No�l"', async () => {
    const latin1 = Buffer.from('Name,City\nAsha Traders,Pune\nCafé Noël,Pune\nZoë,Goa\n', 'latin1');
    await expect(readAll(latin1)).rejects.toThrow(
      new TabularError('Line 3 of the file is not UTF-8 text ("Caf\uFFFD No\uFFFDl,Pune"). Save the file as CSV UTF-8 and upload it again.'),
    );
    // A stray bad byte deep in a large file is found too, with its line.
    const big = Buffer.concat([Buffer.from(`Name\n${'ok\n'.repeat(50_000)}`), Buffer.from([0x41, 0xff, 0x0a])]);
    await expect(readAll(big)).rejects.toThrow('Line 50002 of the file is not UTF-8 text ("A\uFFFD").');
  });
});

/** Shared strings: headers, then a rich text with a phonetic run (left out), then a plain name. */
const STRINGS = ['Item Name', 'MRP', 'Added on', 'Barcode', 'In stock', { xml: '<r><t xml:space="preserve">Basmati </t></r><r><t>Rice 5kg</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh>' }];
const SHEET =
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>5</v></c><c r="B2"><v>612.5</v></c><c r="C2" s="1"><v>45383</v></c><c r="D2"><v>8901234567890</v></c><c r="E2" t="b"><v>1</v></c></row>' +
  '<row r="3"/>' +
  '<row r="4"><c r="A4" t="inlineStr"><is><r><t xml:space="preserve">Toor </t></r><r><t>Dal 1kg</t></r></is></c><c r="B4"><f>B2/5</f><v>122.5</v></c><c r="C4" s="2"><v>45000.75</v></c><c r="D4" t="str"><f>"89"&amp;"01"</f><v>8901</v></c><c r="E4" t="e"><v>#N/A</v></c></row>' +
  '<row r="6"><c r="B6"><v>0.30000000000000004</v></c></row>';
const BOOK = bookParts({ sheetData: SHEET, strings: STRINGS, numFmts: [{ id: 164, code: 'dd/mm/yyyy' }], cellXfs: [0, 14, 164] });
const EXPECTED = {
  headers: ['Item Name', 'MRP', 'Added on', 'Barcode', 'In stock'],
  rows: [
    { row: 2, values: ['Basmati Rice 5kg', '612.5', '2024-04-01', '8901234567890', 'TRUE'] },
    { row: 4, values: ['Toor Dal 1kg', '122.5', '2023-03-15', '8901', ''] },
    { row: 6, values: ['', '0.3'] },
  ],
};
const CT = '[Content_Types].xml';
const RELS = '_rels/.rels';
const WB = 'xl/workbook.xml';
const WBR = 'xl/_rels/workbook.xml.rels';
const S1 = 'xl/worksheets/sheet1.xml';
const S2 = 'xl/worksheets/sheet2.xml';
const SST = 'xl/sharedStrings.xml';
const STY = 'xl/styles.xml';
const ORDERS: [string, string[]][] = [
  ["Excel's own: worksheets before sharedStrings.xml", [CT, RELS, WB, WBR, S1, S2, STY, SST]],
  ['sharedStrings.xml before the worksheets', [CT, RELS, SST, STY, WB, WBR, S1, S2]],
  ['workbook.xml after the worksheets and strings', [CT, RELS, S2, S1, SST, STY, WBR, WB]],
  ['workbook.xml first of all', [WB, CT, RELS, WBR, S2, SST, S1, STY]],
  ['every part reversed', [STY, SST, S2, S1, WBR, WB, RELS, CT]],
];

describe('XLSX layouts', () => {
  it.each(ORDERS)('reads the first tab with shared strings, rich text, dates, formulas and booleans: %s', async (_name, order) => {
    const buf = await zipInOrder(BOOK, order);
    expect(zipOrder(buf)).toEqual(order);
    const { t, rows } = await readAll(buf);
    expect(t.format).toBe('xlsx');
    expect(t.headers).toEqual(EXPECTED.headers);
    expect(rows).toEqual(EXPECTED.rows);
  });

  it('reads the same in 40 more shuffled part orders', async () => {
    let seed = 27;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const names = Object.keys(BOOK);
    for (let i = 0; i < 40; i++) {
      const order = [...names].sort(() => rand() - 0.5);
      const { t, rows } = await readAll(await zipInOrder(BOOK, order));
      expect({ order, headers: t.headers, rows }).toEqual({ order, ...EXPECTED });
    }
  });

  it("reads a one-sheet book in Excel's order (the sheet before sharedStrings.xml) from memory, inline rich text whole", async () => {
    const parts = bookParts({ sheetData: SHEET, strings: STRINGS, numFmts: [{ id: 164, code: 'dd/mm/yyyy' }], cellXfs: [0, 14, 164], single: true });
    const buf = await zipInOrder(parts, [CT, RELS, WB, WBR, S2, STY, SST]);
    expect(zipOrder(buf)).toEqual([CT, RELS, WB, WBR, S2, STY, SST]);
    const { t, rows } = await readAll(buf);
    expect({ headers: t.headers, rows }).toEqual(EXPECTED);
  });

  it('reads the dates of the 1904 date system', async () => {
    const buf = await zipInOrder(bookParts({ sheetData: '<row r="1"><c r="A1" t="inlineStr"><is><t>Day</t></is></c></row><row r="2"><c r="A2" s="1"><v>45383</v></c></row>', cellXfs: [0, 14], date1904: true }));
    expect((await readAll(buf)).rows).toEqual([{ row: 2, values: ['2028-04-02'] }]);
  });

  it('leaves nothing in the temporary directory, read in the worker (exceljs left the sheet in /tmp/tmp-<pid>-*)', async () => {
    // exceljs named its files tmp-<pid>-…; a worker thread has this process's pid. (TMPDIR cannot be
    // changed here: jest gives each test file a copy of process.env that os.tmpdir() does not read.)
    const ours = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`tmp-${process.pid}-`));
    const before = ours();
    const rows = Array.from({ length: 3000 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>${i + 1}</v></c><c r="B${i + 2}"><v>9876${String(i).padStart(6, '0')}</v></c></row>`).join('');
    const names = ['Customer Name', ...Array.from({ length: 3000 }, (_, i) => `Customer ${i}`)];
    const parts = bookParts({ sheetData: `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Mobile</t></is></c></row>${rows}`, strings: names, single: true });
    const buf = await zipInOrder(parts, [CT, RELS, WB, WBR, S2, STY, SST]);
    const t = await readInWorker(buf);
    const read = await all(t.rows);
    expect(read).toHaveLength(3000);
    expect(read[2999]).toEqual({ row: 3001, values: ['Customer 2999', '9876002999'] });
    expect(ours()).toEqual(before);
  });
});

describe('XLSX limits', () => {
  it('refuses a zip of some 25 KB expanding to 6 MB before inflating it, naming the 100-fold limit', async () => {
    // Rows without numbers repeat byte for byte: deflate packs them about a thousand to one.
    const row = `<row><c t="inlineStr"><is><t>${'a'.repeat(200)}</t></is></c></row>`;
    const parts = bookParts({ sheetData: row.repeat(26_000) });
    const buf = await zipInOrder(parts, undefined, 9);
    expect(buf.length).toBeLessThan(32 * 1024);
    const { value, ms } = await time(() => readAll(buf));
    expect((value as Error).message).toMatch(/^A part of this XLSX file \(xl\/worksheets\/sheet2\.xml\) expands from \d+ KB to 6(\.\d)? MB, more than 100 times \(the limit for parts over 1 MB\)\. Save the sheet as CSV and upload that\.$/);
    expect(value).toBeInstanceOf(TabularError);
    expect(ms).toBeLessThan(3000);
  });

  it('refuses a file unpacking to more than the total limit (200 MB by default; 1 MB here)', async () => {
    // Random text packs poorly: no part is over the ratio, but together they pass the total.
    const cells = Array.from({ length: 60 }, (_, i) => `<c r="A${i + 2}" t="inlineStr"><is><t>${randomBytes(10_000).toString('hex')}</t></is></c>`);
    const parts = bookParts({ sheetData: `<row r="1"><c r="A1" t="inlineStr"><is><t>Note</t></is></c></row>${cells.map((c, i) => `<row r="${i + 2}">${c}</row>`).join('')}` });
    await expect(readAll(await zipInOrder(parts), { maxUnpackedBytes: 1024 * 1024 })).rejects.toThrow(new TabularError('This XLSX file unpacks to more than 1 MB (the limit); split it into smaller files.'));
    expect((await readAll(await zipInOrder(parts))).rows).toHaveLength(60);
  });

  it('refuses a part that unpacks to more than its directory entry says', async () => {
    const buf = lieAboutSize(await zipInOrder(BOOK), S2, 100);
    await expect(readAll(buf)).rejects.toThrow(/^This XLSX file cannot be read \(.*too many bytes/);
  });

  it('caps the shared strings (32 MB of text by default; 64 KB here)', async () => {
    const strings = ['Name', ...Array.from({ length: 2000 }, (_, i) => `Customer number ${i} of a long list`)];
    const parts = bookParts({ sheetData: '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row>', strings });
    await expect(readAll(await zipInOrder(parts), { maxSharedChars: 64 * 1024 })).rejects.toThrow(new TabularError('The text of this XLSX file is more than 64 KB (the limit); split it into smaller files.'));
    expect((await readAll(await zipInOrder(parts))).rows).toEqual([{ row: 2, values: ['Customer number 0 of a long list'] }]);
  });

  it('refuses a long cell, a long row, a column past XFD and too many rows (empty <row>s counted)', async () => {
    const head = '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>';
    const inline = (ref: string, s: string) => `<c r="${ref}" t="inlineStr"><is><t>${s}</t></is></c>`;
    const book = async (data: string) => zipInOrder(bookParts({ sheetData: head + data }));
    await expect(readAll(await book(`<row r="2">${inline('A2', 'z'.repeat(40_000))}</row>`))).rejects.toThrow(new TabularError('Row 2 has a cell longer than 32,768 characters, the most a cell may hold.'));
    // Cells without a reference follow each other: A3, B3, ...
    const wide = Array.from({ length: 40 }, () => `<c t="inlineStr"><is><t>${randomBytes(15_000).toString('hex')}</t></is></c>`).join('');
    await expect(readAll(await book(`<row r="3">${wide}</row>`))).rejects.toThrow(new TabularError('Row 3 is longer than 1 MB, the most a row may hold.'));
    await expect(readAll(await book(`<row r="2">${inline('XFE2', 'far')}</row>`))).rejects.toThrow(new TabularError('Row 2 has more than 16,384 columns, the most a sheet may have.'));
    expect((await readAll(await book(`<row r="2">${inline('XFD2', 'last')}</row>`))).rows[0]!.values).toHaveLength(16_384);
    const empties = Array.from({ length: 1001 }, (_, i) => `<row r="${i + 2}"/>`).join('');
    await expect(readAll(await book(`${empties}<row r="1003">${inline('A1003', 'x')}</row>`), { maxRows: 1000 })).rejects.toThrow('The file has more than 1,000 rows');
  });
});
