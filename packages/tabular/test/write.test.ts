import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { csvCell, csvLine, tableWriter, type Column } from '../src';

// The one CSV writer of every export (list exports, reports, GSTR-1): RFC 4180 quoting and the formula guard.
describe('the CSV formula guard', () => {
  const attacks = ['=HYPERLINK("http://ev.il","Pay")', '+91 98765', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)', '\tTabbed', '\rReturn', '\0nul', '＝1+1'];

  it('prefixes a text cell starting with = + - @, tab, carriage return, NUL or a full-width = with a quote', () => {
    expect(attacks.map((a) => csvCell(a))).toEqual([
      `"'=HYPERLINK(""http://ev.il"",""Pay"")"`,
      "'+91 98765",
      `'-2+3+cmd|' /C calc'!A0`,
      "'@SUM(1+1)",
      "'\tTabbed",
      `"'\rReturn"`,
      "'\0nul",
      "'＝1+1",
    ]);
    // Everything else is written as it is: Devanagari, a quote inside, an inner = sign.
    expect(csvCell('रमेश = Ramesh')).toBe('रमेश = Ramesh');
    expect(csvCell("O'Neil, \"Bros\"")).toBe(`"O'Neil, ""Bros"""`);
  });

  it('leaves a negative number in a number column a number (a credit note\'s -150.00), guards it in a text column', () => {
    expect(csvLine(['CN-1', '-150.00', -150, '-0.5', '.5'], ['text', 'number', 'number', 'number', 'number'])).toBe('CN-1,-150.00,-150,-0.5,.5\r\n');
    expect(csvLine(['-150.00'], ['text'])).toBe("'-150.00\r\n");
    // Without types a JS number is a number and a string is text.
    expect(csvLine([-150, '-150'])).toBe("-150,'-150\r\n");
  });

  it('guards anything that is not a plain number even in a number column', () => {
    expect(csvLine(['-1+cmd|A0', '=1', '1e3', '- 5', '-', '+5', '@1'], Array(7).fill('number'))).toBe("'-1+cmd|A0,'=1,1e3,'- 5,'-,'+5,'@1\r\n");
    expect(csvLine([Number.NEGATIVE_INFINITY], ['number'])).toBe("'-Infinity\r\n");
  });

  it('guards every text column of a streamed export and keeps its number columns numbers', async () => {
    interface R { name: string; amount: string }
    const cols: Column<R>[] = [
      { header: 'Name', value: (r) => r.name },
      { header: 'Amount', type: 'number', value: (r) => r.amount },
    ];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const w = tableWriter('csv', out, cols);
    for (const name of attacks.slice(0, 4)) await w.add({ name, amount: '-150.00' });
    await w.end();
    const lines = Buffer.concat(chunks).toString('utf8').replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toEqual([
      'Name,Amount',
      `"'=HYPERLINK(""http://ev.il"",""Pay"")",-150.00`,
      "'+91 98765,-150.00",
      `'-2+3+cmd|' /C calc'!A0,-150.00`,
      "'@SUM(1+1),-150.00",
      '',
    ]);
  });

  it('XLSX needs no prefix: text is a string cell, never a formula, and numbers stay numbers', async () => {
    interface R { name: string; amount: string }
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const w = tableWriter<R>('xlsx', out, [
      { header: 'Name', value: (r) => r.name },
      { header: 'Amount', type: 'number', value: (r) => r.amount },
    ]);
    await w.add({ name: attacks[0]!, amount: '-150.00' });
    await w.end();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A2').type).toBe(ExcelJS.ValueType.String);
    expect(ws.getCell('A2').value).toBe(attacks[0]);
    expect(ws.getCell('B2').value).toBe(-150);
  });
});
