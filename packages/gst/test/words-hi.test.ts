import { amountInWordsHindi, GstError, HINDI_NUMBERS } from '../src';

describe('amountInWordsHindi (Indian numbering: हज़ार, लाख, करोड़)', () => {
  it.each<[string | number, string]>([
    [0, 'शून्य रुपये मात्र'],
    // one rupee, one paisa: singular
    [1, 'एक रुपया मात्र'],
    ['0.01', 'एक पैसा मात्र'],
    ['2.01', 'दो रुपये और एक पैसा मात्र'],
    ['0.75', 'पचहत्तर पैसे मात्र'],
    [99, 'निन्यानवे रुपये मात्र'],
    [100, 'एक सौ रुपये मात्र'],
    [101, 'एक सौ एक रुपये मात्र'],
    // 1,005: no hundreds word when the hundreds are 0
    [1005, 'एक हज़ार पाँच रुपये मात्र'],
    // 1,25,450.50 = 1 lakh + 25 thousand + 4 hundred + 50, and 50 paise
    ['125450.50', 'एक लाख पच्चीस हज़ार चार सौ पचास रुपये और पचास पैसे मात्र'],
    // 1,00,000
    [100000, 'एक लाख रुपये मात्र'],
    // 1,00,00,000
    [10000000, 'एक करोड़ रुपये मात्र'],
    // 12,34,56,789 = 12 crore + 34 lakh + 56 thousand + 7 hundred + 89
    [123456789, 'बारह करोड़ चौंतीस लाख छप्पन हज़ार सात सौ नवासी रुपये मात्र'],
    // 99,99,999.99
    ['9999999.99', 'निन्यानवे लाख निन्यानवे हज़ार नौ सौ निन्यानवे रुपये और निन्यानवे पैसे मात्र'],
    // 1,00,000 crore: crores counted in Indian words too
    ['1000000000000', 'एक लाख करोड़ रुपये मात्र'],
    // 47,83,219.37: 47 lakh, 83 thousand, 2 hundred, 19; 37 paise
    ['4783219.37', 'सैंतालीस लाख तिरासी हज़ार दो सौ उन्नीस रुपये और सैंतीस पैसे मात्र'],
    // half-up to the paisa first
    ['0.005', 'एक पैसा मात्र'],
    ['10.999', 'ग्यारह रुपये मात्र'],
  ])('%p -> %s', (value, words) => {
    expect(amountInWordsHindi(value)).toBe(words);
  });

  it('has its own word for every number from 1 to 99, each used as is', () => {
    expect(HINDI_NUMBERS).toHaveLength(100);
    const words = HINDI_NUMBERS.slice(1);
    expect(new Set(words).size).toBe(99);
    for (const w of words) expect(w).toMatch(/^[\u0900-\u097F]+$/);
    // hand-checked spots across the table (the irregular ones)
    const spots: [number, string][] = [[5, 'पाँच'], [19, 'उन्नीस'], [29, 'उनतीस'], [38, 'अड़तीस'], [49, 'उनचास'], [53, 'तिरेपन'], [67, 'सड़सठ'], [79, 'उन्यासी'], [89, 'नवासी'], [91, 'इक्यानवे']];
    for (const [n, w] of spots) expect(HINDI_NUMBERS[n]).toBe(w);
    for (let n = 2; n <= 99; n++) expect(amountInWordsHindi(n)).toBe(`${HINDI_NUMBERS[n]} रुपये मात्र`);
  });

  it('refuses a negative amount and a non-number', () => {
    expect(() => amountInWordsHindi(-1)).toThrow(/cannot be negative/);
    expect(() => amountInWordsHindi('1e5')).toThrow(GstError);
  });
});
