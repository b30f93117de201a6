import { apportionPaise, gstTaxables, noteValue, simpleShares } from './noteValue';

describe('noteValue', () => {
  // A simple-mode bill: line 1 = 5 packs at 100 (amount 500), line 2 = 2 at 250 (amount 500),
  // subtotal 1000, tax 18 % = 180, shipping 40, discount 30 -> amount 1000 + 180 + 40 - 30 = 1190.
  // Each line: 500 - 15 (discount share) + 90 (tax share) = 575.
  const [s1, s2] = simpleShares([500, 500], 30, 180);
  const bill = (returned: [number, number], credited = 0) => ({
    total: 1190,
    credited,
    lines: [
      { sl_no: 1, share: s1!, sold: 5, returned: returned[0], returnable: 5 - returned[0] },
      { sl_no: 2, share: s2!, sold: 2, returned: returned[1], returnable: 2 - returned[1] },
    ],
  });

  it('values a partial return by the line share x returned / sold', () => {
    expect([s1, s2]).toEqual([575, 575]);
    // 575 x 2 / 5 = 230
    expect(noteValue(bill([0, 0]), new Map([[1, 2]]))).toBe(230);
    // 575 x 1 / 5 + 575 x 1 / 2 = 115 + 287.5 = 402.5
    expect(noteValue(bill([0, 0]), new Map([[1, 1], [2, 1]]))).toBe(402.5);
  });

  it('gives the completing return of a line its remainder', () => {
    // line 1 had 2 of 5 back (230): the last 3 take 575 - 230 = 345
    expect(noteValue(bill([2, 0]), new Map([[1, 3]]))).toBe(345);
  });

  it('credits shipping only when the whole bill comes back', () => {
    // everything at once: the sale's amount 1190
    expect(noteValue(bill([0, 0]), new Map([[1, 5], [2, 2]]))).toBe(1190);
    // after a first note of 230: 1190 - 230 = 960
    expect(noteValue(bill([2, 0], 230), new Map([[1, 3], [2, 2]]))).toBe(960);
  });

  it('rounds each line to the paisa', () => {
    // share 100 for 3 packs: 1 pack = 33.333.. -> 33.33
    const b = { total: 100, credited: 0, lines: [{ sl_no: 1, share: 100, sold: 3, returned: 0, returnable: 3 }, { sl_no: 2, share: 0, sold: 1, returned: 0, returnable: 1 }] };
    expect(noteValue(b, new Map([[1, 1]]))).toBe(33.33);
  });

  it('spreads a discount to the paisa, the largest line taking the rest', () => {
    // 100 over 1 : 1 : 1 -> 33.33 each, the first largest takes 0.01
    expect(apportionPaise(100, [1, 1, 1])).toEqual([33.34, 33.33, 33.33]);
    // 270 over 1040, 1450, 1250, 1350, 1180 (6270): 44.78, 62.44, 53.83, 58.13, 50.81 (sum 269.99) -> 18 mm line 62.45
    expect(apportionPaise(270, [1040, 1450, 1250, 1350, 1180])).toEqual([44.78, 62.45, 53.83, 58.13, 50.81]);
  });

  it('takes the shipping share out of a GST line and keeps its share of the summary discount', () => {
    // Own taxable values 1500 and 190, shipping 50, discount 20: 30 spread by them = 26.63 and
    // 3.37, so the invoice says 1526.63 and 193.37. The discount alone, 20: 17.75 and 2.25 ->
    // 1482.25 and 187.75.
    expect(gstTaxables([1526.63, 193.37], 50, 20)).toEqual([1482.25, 187.75]);
    // A discount above the shipping: 1000 and 500, shipping 10, discount 40 -> -30 spread:
    // -20 and -10, invoice 980 and 490; discount 40: 26.67 and 13.33 -> 973.33 and 486.67.
    expect(gstTaxables([980, 490], 10, 40)).toEqual([973.33, 486.67]);
  });

  it('adds GST per head to the paisa on the returned taxable value', () => {
    // own 600 + 400, discount 50, no shipping -> invoice taxables 570 and 380, back to 570 and 380.
    // 1 of 3 packs of line 1 at 12 % intra-state: taxable 190.00, CGST = SGST = 190 x 6 % = 11.40 -> 212.80
    const [t1, t2] = gstTaxables([570, 380], 0, 50);
    expect([t1, t2]).toEqual([570, 380]);
    const b = {
      total: 2000,
      credited: 0,
      lines: [
        { sl_no: 1, share: t1!, ratePercent: 12, sold: 3, returned: 0, returnable: 3 },
        { sl_no: 2, share: t2!, ratePercent: 18, interState: false, sold: 1, returned: 0, returnable: 1 },
      ],
    };
    expect(noteValue(b, new Map([[1, 1]]))).toBe(212.8);
    // 1 of 7 packs taxable 33.333 -> 33.33 at 5 % inter-state: IGST 1.6665 -> 1.67 -> 35.00
    expect(noteValue({ total: 999, credited: 0, lines: [{ sl_no: 1, share: 233.33, ratePercent: 5, interState: true, sold: 7, returned: 0, returnable: 7 }, b.lines[1]!] }, new Map([[1, 1]]))).toBe(35);
  });
});
