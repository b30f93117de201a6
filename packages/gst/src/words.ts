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

// Hindi: every number from 1 to 99 has its own word (no tens + ones rule), so a full table.
const HI_1_99 = [
  '', 'एक', 'दो', 'तीन', 'चार', 'पाँच', 'छह', 'सात', 'आठ', 'नौ',
  'दस', 'ग्यारह', 'बारह', 'तेरह', 'चौदह', 'पंद्रह', 'सोलह', 'सत्रह', 'अठारह', 'उन्नीस',
  'बीस', 'इक्कीस', 'बाईस', 'तेईस', 'चौबीस', 'पच्चीस', 'छब्बीस', 'सत्ताईस', 'अट्ठाईस', 'उनतीस',
  'तीस', 'इकतीस', 'बत्तीस', 'तैंतीस', 'चौंतीस', 'पैंतीस', 'छत्तीस', 'सैंतीस', 'अड़तीस', 'उनतालीस',
  'चालीस', 'इकतालीस', 'बयालीस', 'तैंतालीस', 'चवालीस', 'पैंतालीस', 'छियालीस', 'सैंतालीस', 'अड़तालीस', 'उनचास',
  'पचास', 'इक्यावन', 'बावन', 'तिरेपन', 'चौवन', 'पचपन', 'छप्पन', 'सत्तावन', 'अट्ठावन', 'उनसठ',
  'साठ', 'इकसठ', 'बासठ', 'तिरेसठ', 'चौंसठ', 'पैंसठ', 'छियासठ', 'सड़सठ', 'अड़सठ', 'उनहत्तर',
  'सत्तर', 'इकहत्तर', 'बहत्तर', 'तिहत्तर', 'चौहत्तर', 'पचहत्तर', 'छिहत्तर', 'सतहत्तर', 'अठहत्तर', 'उन्यासी',
  'अस्सी', 'इक्यासी', 'बयासी', 'तिरासी', 'चौरासी', 'पचासी', 'छियासी', 'सत्तासी', 'अट्ठासी', 'नवासी',
  'नब्बे', 'इक्यानवे', 'बानवे', 'तिरानवे', 'चौरानवे', 'पचानवे', 'छियानवे', 'सत्तानवे', 'अट्ठानवे', 'निन्यानवे',
];

/** The Hindi number words 1-99 (index = number; 0 is ''), for tests and other printers. */
export const HINDI_NUMBERS: readonly string[] = HI_1_99;

function hiBelow1000(n: number): string {
  const h = Math.floor(n / 100);
  return [h ? `${HI_1_99[h]} सौ` : '', HI_1_99[n % 100]].filter(Boolean).join(' ');
}

/** Indian numbering in Hindi: हज़ार, लाख, करोड़; above that the crores are counted the same way. */
function hiIntegerWords(n: bigint): string {
  if (n === 0n) return '';
  const crore = n / 10_000_000n;
  const rest = Number(n % 10_000_000n);
  const lakh = Math.floor(rest / 100_000);
  const thousand = Math.floor((rest % 100_000) / 1000);
  return [
    crore ? `${hiIntegerWords(crore)} करोड़` : '',
    lakh ? `${HI_1_99[lakh]} लाख` : '',
    thousand ? `${HI_1_99[thousand]} हज़ार` : '',
    hiBelow1000(rest % 1000),
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * amountInWords in Hindi, as Hindi invoices print it: "एक लाख दो हज़ार तीन सौ चार रुपये और पचास पैसे मात्र"
 * (one rupee: रुपया, one paisa: पैसा). Same rounding to the paisa and the same refusals as the English.
 */
export function amountInWordsHindi(value: AmountInput): string {
  const x = toPaisa(amount(value, 'amount'));
  if (x.isNegative()) throw new GstError(`An amount in words cannot be negative (${x.toFixed()}).`);
  const rupees = BigInt(x.floor().toFixed(0));
  const paise = x.minus(x.floor()).times(100).toNumber();
  const r = hiIntegerWords(rupees);
  if (!r && !paise) return 'शून्य रुपये मात्र';
  const p = paise ? `${HI_1_99[paise]} ${paise === 1 ? 'पैसा' : 'पैसे'}` : '';
  const rs = r ? `${r} ${rupees === 1n ? 'रुपया' : 'रुपये'}` : '';
  if (!rs) return `${p} मात्र`;
  return p ? `${rs} और ${p} मात्र` : `${rs} मात्र`;
}
