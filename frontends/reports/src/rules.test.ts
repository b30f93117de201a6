import {
  defaultPeriod,
  fallbackFileName,
  gstr1Query,
  invoiceRows,
  isEmptyReturn,
  noteRows,
  monthLabel,
  posLabel,
  sum,
  totals,
} from './rules';

describe('GST page rules', () => {
  it('defaults to the previous month on the Indian calendar', () => {
    expect(defaultPeriod(new Date('2026-11-24T08:00:00Z'))).toBe('2026-10');
    // 1 January 00:10 IST is still 31 December in UTC: the previous month is December.
    expect(defaultPeriod(new Date('2026-12-31T18:40:00Z'))).toBe('2026-12');
    expect(defaultPeriod(new Date('2027-01-15T10:00:00Z'))).toBe('2026-12');
    // 1 April 00:30 IST: March, the last month of the financial year.
    expect(defaultPeriod(new Date('2027-03-31T19:00:00Z'))).toBe('2027-03');
  });

  it('names months and places of supply', () => {
    expect(monthLabel('2026-10')).toBe('October 2026');
    expect(monthLabel('2027-01')).toBe('January 2027');
    // Hindi month names (ICU data spells October either way), the year stays in Latin digits.
    expect(monthLabel('2026-10', 'hi')).toMatch(/^अक्[टत]ूबर 2026$/);
    expect(monthLabel('2027-01', 'hi')).toBe('जनवरी 2027');
    expect(posLabel('24')).toBe('Gujarat (24)');
    expect(posLabel('27')).toBe('Maharashtra (27)');
    expect(posLabel('42')).toBe('42');
  });

  it('adds amounts to the paisa without float drift', () => {
    expect(sum([0.1, 0.2])).toBe(0.3);
    expect(sum([1500, 190, undefined])).toBe(1690);
    expect(sum([135, 11.4, 135, 11.4])).toBe(292.8);
  });

  it('makes one row per invoice from the worked example, rates added up', () => {
    const rows = invoiceRows([
      {
        ctin: '24AAGCS5678K1ZT',
        inv: [
          {
            inum: 'GT/26-27/0001',
            idt: '05-10-2026',
            val: 1983,
            pos: '24',
            itms: [
              { num: 1801, itm_det: { txval: 1500, rt: 18, iamt: 270, csamt: 0 } },
              { num: 1201, itm_det: { txval: 190, rt: 12, iamt: 22.8, csamt: 0 } },
            ],
          },
        ],
      },
    ]);
    expect(rows).toEqual([
      {
        ctin: '24AAGCS5678K1ZT',
        inum: 'GT/26-27/0001',
        idt: '05-10-2026',
        val: 1983,
        pos: '24',
        txval: 1690,
        iamt: 292.8,
        camt: 0,
        samt: 0,
        tax: 292.8,
      },
    ]);
    expect(totals(rows, ['val', 'txval', 'tax'])).toEqual({ val: 1983, txval: 1690, tax: 292.8 });
  });

  it('takes the place of supply of a B2CL group when the invoice has none', () => {
    const rows = invoiceRows([
      {
        pos: '29',
        inv: [
          {
            inum: 'GT/26-27/0002',
            idt: '06-10-2026',
            val: 118000,
            itms: [{ num: 1, itm_det: { txval: 100000, rt: 18, iamt: 18000 } }],
          },
        ],
      },
    ]);
    expect(rows[0]).toMatchObject({ ctin: '', pos: '29', txval: 100000, iamt: 18000, tax: 18000 });
  });

  it('knows an empty return, and names downloads and their queries', () => {
    expect(isEmptyReturn({ gstin: '27AAPFU0939F1ZV', fp: '102026' })).toBe(true);
    expect(isEmptyReturn({ gstin: '27AAPFU0939F1ZV', fp: '102026', b2b: [], b2cs: [], hsn: {} })).toBe(true);
    // A month of only exempt sales, or only a credit note, is not empty.
    expect(isEmptyReturn({ gstin: '27AAPFU0939F1ZV', fp: '102026', nil: { inv: [{ sply_ty: 'INTRAB2C', nil_amt: 0, expt_amt: 80, ngsup_amt: 0 }] } })).toBe(false);
    expect(isEmptyReturn({ gstin: '27AAPFU0939F1ZV', fp: '102026', cdnr: [{ ctin: '24AAGCS5678K1ZT', nt: [] }] })).toBe(false);
    expect(
      isEmptyReturn({
        gstin: '27AAPFU0939F1ZV',
        fp: '102026',
        b2cs: [{ sply_ty: 'INTRA', pos: '27', typ: 'OE', rt: 18, txval: 100, camt: 9, samt: 9 }],
      }),
    ).toBe(false);
    expect(fallbackFileName('2026-10', 'json')).toBe('GSTR1_102026.json');
    expect(fallbackFileName('2026-10', 'hsn_b2b')).toBe('GSTR1_102026_hsn_b2b.csv');
    expect(gstr1Query('2026-10')).toEqual({ period: '2026-10' });
    expect(gstr1Query('2026-10', 'b2cs')).toEqual({ period: '2026-10', format: 'csv', section: 'b2cs' });
  });

  it('one row per credit or debit note, its rates added up (cdnr under the buyer, cdnur without)', () => {
    const rows = noteRows(
      [{ ctin: '24AAGCS5678K1ZT', nt: [{ ntty: 'C', nt_num: 'CN/26-27/0001', nt_dt: '20-05-2026', pos: '24', val: 696.4, itms: [{ num: 1, itm_det: { txval: 95, rt: 12, iamt: 11.4 } }, { num: 2, itm_det: { txval: 500, rt: 18, iamt: 90 } }] }] }],
      [{ typ: 'B2CL', ntty: 'C', nt_num: 'CN/26-27/0003', nt_dt: '22-05-2026', pos: '29', val: 5900, itms: [{ num: 1, itm_det: { txval: 5000, rt: 18, iamt: 900 } }] }],
    );
    // 95.00 + 500.00 = 595.00; IGST 11.40 + 90.00 = 101.40.
    expect(rows.map((r) => [r.ctin, r.nt_num, r.txval, r.tax])).toEqual([
      ['24AAGCS5678K1ZT', 'CN/26-27/0001', 595, 101.4],
      ['', 'CN/26-27/0003', 5000, 900],
    ]);
  });
});
