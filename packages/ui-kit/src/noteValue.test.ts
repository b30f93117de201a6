import { gstShare, noteValue, simpleShares } from './noteValue';

describe('noteValue', () => {
  // A simple-mode bill: line 1 = 5 packs at 100 (amount 500), line 2 = 2 at 250 (amount 500),
  // subtotal 1000, tax 18 % = 180, shipping 40, discount 30 -> amount 1000 + 180 + 40 - 30 = 1190.
  // Without shipping 1150: each line's share = 500 x 1150 / 1000 = 575.
  const lines = [
    { sl_no: 1, amount: 500 },
    { sl_no: 2, amount: 500 },
  ];
  const shares = simpleShares(lines, 1000, 1190, 40);
  const bill = (returned: [number, number]) => ({
    total: 1190,
    credited: 0,
    lines: [
      { sl_no: 1, share: shares.get(lines[0]!)!, sold: 5, returned: returned[0], returnable: 5 - returned[0] },
      { sl_no: 2, share: shares.get(lines[1]!)!, sold: 2, returned: returned[1], returnable: 2 - returned[1] },
    ],
  });

  it('values a partial return by the line share x returned / sold', () => {
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
    expect(noteValue({ ...bill([2, 0]), credited: 230 }, new Map([[1, 3], [2, 2]]))).toBe(960);
  });

  it('rounds each line to the paisa', () => {
    // share 100 for 3 packs: 1 pack = 33.333.. -> 33.33
    const b = { total: 100, credited: 0, lines: [{ sl_no: 1, share: 100, sold: 3, returned: 0, returnable: 3 }, { sl_no: 2, share: 0, sold: 1, returned: 0, returnable: 1 }] };
    expect(noteValue(b, new Map([[1, 1]]))).toBe(33.33);
  });

  it('shares a GST line after its part of the summary discount, with its tax', () => {
    // amount 600 of subtotal 1000, discount 50 -> 600 - 30 = 570, at 12 %: 570 x 1.12 = 638.4
    expect(gstShare(600, 1000, 50, 12)).toBeCloseTo(638.4, 9);
  });
});
