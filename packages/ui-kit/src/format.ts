// Rupee formatting with Indian digit grouping (₹1,23,456.00), exact on decimal strings:
// rounding happens on the digits, never through binary floating point.

function groupIndian(intDigits: string): string {
  if (intDigits.length <= 3) return intDigits;
  const last3 = intDigits.slice(-3);
  const rest = intDigits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${rest},${last3}`;
}

/** Rounds a plain decimal string half away from zero to `places`; returns [int, frac]. */
function roundDigits(intPart: string, frac: string, places: number): [string, string] {
  const padded = (frac + '0'.repeat(places + 1)).slice(0, places + 1);
  let digits = (intPart + padded.slice(0, places)).split('').map(Number);
  if (Number(padded[places]) >= 5) {
    let i = digits.length - 1;
    while (i >= 0) {
      if (digits[i] === 9) {
        digits[i] = 0;
        i--;
      } else {
        digits[i]++;
        break;
      }
    }
    if (i < 0) digits = [1, ...digits];
  }
  const all = digits.join('');
  const int = all.slice(0, all.length - places).replace(/^0+(?=\d)/, '') || '0';
  return [int, all.slice(all.length - places)];
}

function toPlainString(value: number | string): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    const s = String(value);
    // Shortest round-trip form is exact for what the number means; expand exponents.
    return /e/i.test(s) ? value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : s;
  }
  const s = value.trim().replace(/,/g, '');
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(s) ? s : null;
}

/** formatINR(123456) === '₹1,23,456.00'; formatINR('-1234.565') === '-₹1,234.57'. */
export function formatINR(value: number | string | null | undefined, places = 2): string {
  const plain = value === null || value === undefined || value === '' ? '0' : toPlainString(value);
  if (plain === null) return String(value);
  const negative = plain.startsWith('-');
  const unsigned = plain.replace(/^[+-]/, '');
  const [intRaw, fracRaw = ''] = unsigned.split('.');
  const [int, frac] = roundDigits(intRaw || '0', fracRaw, places);
  const isZero = /^0+$/.test(int + frac);
  const body = `₹${groupIndian(int)}${places > 0 ? `.${frac}` : ''}`;
  return negative && !isZero ? `-${body}` : body;
}

/** Today in the browser's calendar (the shop's, IST in India), YYYY-MM-DD: a date field's default. */
export function todayISO(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}
