import { amount, AmountInput, toPaisa } from './amount';
import { GstError } from './errors';

const ONES = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen'];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

function below100(n: number): string {
  return n < 20 ? ONES[n] : [TENS[Math.floor(n / 10)], ONES[n % 10]].filter(Boolean).join(' ');
}

function below1000(n: number): string {
  const h = Math.floor(n / 100);
  return [h ? `${ONES[h]} Hundred` : '', below100(n % 100)].filter(Boolean).join(' ');
}

/** Indian numbering: thousand, lakh (1,00,000), crore (1,00,00,000); above that the crores are counted the same way. */
function integerWords(n: bigint): string {
  if (n === 0n) return '';
  const crore = n / 10_000_000n;
  const rest = Number(n % 10_000_000n);
  const lakh = Math.floor(rest / 100_000);
  const thousand = Math.floor((rest % 100_000) / 1000);
  return [
    crore ? `${integerWords(crore)} Crore` : '',
    lakh ? `${below100(lakh)} Lakh` : '',
    thousand ? `${below100(thousand)} Thousand` : '',
    below1000(rest % 1000),
  ]
    .filter(Boolean)
    .join(' ');
}

/** "Rupees One Lakh Two Thousand Three Hundred Four and Fifty Paise Only", as printed on invoices. */
export function amountInWords(value: AmountInput): string {
  const x = toPaisa(amount(value, 'amount'));
  if (x.isNegative()) throw new GstError(`An amount in words cannot be negative (${x.toFixed()}).`);
  const rupees = BigInt(x.floor().toFixed(0));
  const paise = x.minus(x.floor()).times(100).toNumber();
  const r = integerWords(rupees);
  if (!r && !paise) return 'Rupees Zero Only';
  // One paisa, many paise.
  const p = paise ? `${below100(paise)} ${paise === 1 ? 'Paisa' : 'Paise'}` : '';
  if (!r) return `${p} Only`;
  return p ? `Rupees ${r} and ${p} Only` : `Rupees ${r} Only`;
}
