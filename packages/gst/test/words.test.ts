import { amountInWords, GstError } from '../src';

describe('amountInWords (Indian numbering: thousand, lakh, crore)', () => {
  it.each<[string | number, string]>([
    [0, 'Rupees Zero Only'],
    ['0.00', 'Rupees Zero Only'],
    [1, 'Rupees One Only'],
    [15, 'Rupees Fifteen Only'],
    [20, 'Rupees Twenty Only'],
    [110, 'Rupees One Hundred Ten Only'],
    [1983, 'Rupees One Thousand Nine Hundred Eighty Three Only'],
    // 1,00,000
    [100000, 'Rupees One Lakh Only'],
    // 1,02,304.50
    ['102304.50', 'Rupees One Lakh Two Thousand Three Hundred Four and Fifty Paise Only'],
    // 99,99,999.99
    ['9999999.99', 'Rupees Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Ninety Nine Paise Only'],
    // 1,00,00,000
    [10000000, 'Rupees One Crore Only'],
    // 12,34,56,789.05
    ['123456789.05', 'Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine and Five Paise Only'],
    // 1,00,000 crore: crores are counted in Indian words too
    ['1000000000000', 'Rupees One Lakh Crore Only'],
    // 1234567890012: last three 012, then 90 thousand, 78 lakh, and 1,23,456 crore
    ['1234567890012', 'Rupees One Lakh Twenty Three Thousand Four Hundred Fifty Six Crore Seventy Eight Lakh Ninety Thousand Twelve Only'],
    ['0.50', 'Fifty Paise Only'],
    ['0.01', 'One Paisa Only'],
    ['2.01', 'Rupees Two and One Paisa Only'],
    // half-up to the paisa first: 0.005 -> 0.01
    ['0.005', 'One Paisa Only'],
    ['10.999', 'Rupees Eleven Only'],
  ])('%p -> %s', (value, words) => {
    expect(amountInWords(value)).toBe(words);
  });

  it('refuses a negative amount and a non-number', () => {
    expect(() => amountInWords(-1)).toThrow(/cannot be negative/);
    expect(() => amountInWords('1e5')).toThrow(GstError);
  });
});
