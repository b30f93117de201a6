import { csvLine, GSTR1_CSV_HEADERS, gstr1CsvDate, gstr1CsvPos, gstr1CsvUqc, GstError } from '../src';

describe('GSTR-1 offline tool CSV helpers', () => {
  it('dates as dd-Mon-yyyy', () => {
    expect(gstr1CsvDate('2026-04-01')).toBe('01-Apr-2026');
    expect(gstr1CsvDate('2027-03-31')).toBe('31-Mar-2027');
    expect(() => gstr1CsvDate('2026-13-01')).toThrow(GstError);
  });
  it('place of supply as code-name', () => {
    expect(gstr1CsvPos('24')).toBe('24-Gujarat');
    expect(gstr1CsvPos('27')).toBe('27-Maharashtra');
    expect(() => gstr1CsvPos('00')).toThrow(GstError);
  });
  it('UQC as CODE-NAME, unknown as OTH-OTHERS', () => {
    expect(gstr1CsvUqc('PCS')).toBe('PCS-PIECES');
    expect(gstr1CsvUqc('kgs')).toBe('KGS-KILOGRAMS');
    expect(gstr1CsvUqc('XYZ')).toBe('OTH-OTHERS');
  });
  it('quotes fields with commas and quotes (RFC 4180)', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 1.5, null])).toBe('a,"b,c","say ""hi""",1.5,\r\n');
  });
  it('b2b headers are the offline tool template row', () => {
    expect(csvLine(GSTR1_CSV_HEADERS.b2b)).toBe(
      'GSTIN/UIN of Recipient,Receiver Name,Invoice Number,Invoice date,Invoice Value,Place Of Supply,Reverse Charge,Applicable % of Tax Rate,Invoice Type,E-Commerce GSTIN,Rate,Taxable Value,Cess Amount\r\n',
    );
  });
});
