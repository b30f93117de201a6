import { GSTR1_CSV_HEADERS, GSTR1_CSV_SECTIONS, gstr1CsvDate, gstr1CsvPos, gstr1CsvTypes, gstr1CsvUqc, GstError } from '../src';

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
  it('types each column for the one CSV writer (@bahi/tabular csvLine): amounts, rates and counts are numbers, the rest text', () => {
    const typed = (sec: (typeof GSTR1_CSV_SECTIONS)[number]) => Object.fromEntries(GSTR1_CSV_HEADERS[sec].map((h: string, i: number) => [h, gstr1CsvTypes(sec)[i]]));
    expect(typed('b2b')).toMatchObject({ 'GSTIN/UIN of Recipient': 'text', 'Receiver Name': 'text', 'Invoice Number': 'text', 'Invoice Value': 'number', Rate: 'number', 'Taxable Value': 'number', 'Cess Amount': 'number' });
    // A credit note's value is written negative by some tools: it must stay a number.
    expect(typed('cdnr')).toMatchObject({ 'Receiver Name': 'text', 'Note Number': 'text', 'Note Value': 'number', 'Taxable Value': 'number' });
    // Every section that has them (the HSN summary's files among them): HSN, description and unit text; quantities and tax numbers.
    const numbers = ['Total Quantity', 'Total Value', 'Integrated Tax Amount', 'Central Tax Amount', 'State/UT Tax Amount', 'Rate', 'Taxable Value'];
    const texts = ['HSN', 'Description', 'UQC', 'Place Of Supply', 'Invoice date', 'Note Date', 'E-Commerce GSTIN'];
    for (const sec of GSTR1_CSV_SECTIONS) {
      GSTR1_CSV_HEADERS[sec].forEach((h: string, i: number) => {
        if (numbers.includes(h)) expect([sec, h, gstr1CsvTypes(sec)[i]]).toEqual([sec, h, 'number']);
        if (texts.includes(h)) expect([sec, h, gstr1CsvTypes(sec)[i]]).toEqual([sec, h, 'text']);
      });
    }
    expect(typed('docs')).toEqual({ 'Nature of Document': 'text', 'Sr. No. From': 'text', 'Sr. No. To': 'text', 'Total Number': 'number', Cancelled: 'number' });
    for (const sec of GSTR1_CSV_SECTIONS) expect(gstr1CsvTypes(sec)).toHaveLength(GSTR1_CSV_HEADERS[sec].length);
  });
});
