import { GstError } from './errors';

/**
 * GST state / union-territory codes (the first two digits of every GSTIN), as in the GST
 * portal's and e-invoice state-code masters. `short` holds the usual two-letter forms: the
 * GSTN alpha code and the vehicle-registration code where they differ. `aliases` are older or
 * common spellings. `utgst` marks union territories without a legislature, where the state
 * half of an intra-state tax is UTGST (UTGST Act 2017 s.7) instead of SGST.
 */
export interface GstState {
  code: string;
  name: string;
  short: string[];
  aliases?: string[];
  utgst?: boolean;
  /** A code no longer issued; `current` is where its entries went, when that is one code. */
  retired?: { reason: string; current?: string };
}

export const GST_STATES: readonly GstState[] = [
  { code: '01', name: 'Jammu and Kashmir', short: ['JK'] },
  { code: '02', name: 'Himachal Pradesh', short: ['HP'] },
  { code: '03', name: 'Punjab', short: ['PB'] },
  { code: '04', name: 'Chandigarh', short: ['CH'], utgst: true },
  { code: '05', name: 'Uttarakhand', short: ['UK', 'UT'], aliases: ['Uttaranchal'] },
  { code: '06', name: 'Haryana', short: ['HR'] },
  { code: '07', name: 'Delhi', short: ['DL'], aliases: ['NCT of Delhi', 'New Delhi'] },
  { code: '08', name: 'Rajasthan', short: ['RJ'] },
  { code: '09', name: 'Uttar Pradesh', short: ['UP'] },
  { code: '10', name: 'Bihar', short: ['BR', 'BH'] },
  { code: '11', name: 'Sikkim', short: ['SK'] },
  { code: '12', name: 'Arunachal Pradesh', short: ['AR'] },
  { code: '13', name: 'Nagaland', short: ['NL'] },
  { code: '14', name: 'Manipur', short: ['MN'] },
  { code: '15', name: 'Mizoram', short: ['MZ', 'MI'] },
  { code: '16', name: 'Tripura', short: ['TR'] },
  { code: '17', name: 'Meghalaya', short: ['ML', 'ME'] },
  { code: '18', name: 'Assam', short: ['AS'] },
  { code: '19', name: 'West Bengal', short: ['WB'] },
  { code: '20', name: 'Jharkhand', short: ['JH'] },
  { code: '21', name: 'Odisha', short: ['OD', 'OR'], aliases: ['Orissa'] },
  { code: '22', name: 'Chhattisgarh', short: ['CG', 'CT'] },
  { code: '23', name: 'Madhya Pradesh', short: ['MP'] },
  { code: '24', name: 'Gujarat', short: ['GJ'] },
  {
    code: '25',
    name: 'Daman and Diu',
    short: ['DD'],
    utgst: true,
    retired: { reason: 'merged into 26 (Dadra and Nagar Haveli and Daman and Diu) on 26 January 2020', current: '26' },
  },
  {
    code: '26',
    name: 'Dadra and Nagar Haveli and Daman and Diu',
    short: ['DN', 'DH', 'DNHDD'],
    aliases: ['Dadra and Nagar Haveli'],
    utgst: true,
  },
  { code: '27', name: 'Maharashtra', short: ['MH'] },
  {
    code: '28',
    name: 'Andhra Pradesh (before division)',
    short: [],
    retired: { reason: 'was Andhra Pradesh before the 2014 division; use 37 (Andhra Pradesh) or 36 (Telangana)' },
  },
  { code: '29', name: 'Karnataka', short: ['KA'] },
  { code: '30', name: 'Goa', short: ['GA'] },
  { code: '31', name: 'Lakshadweep', short: ['LD'], utgst: true },
  { code: '32', name: 'Kerala', short: ['KL'] },
  { code: '33', name: 'Tamil Nadu', short: ['TN'] },
  { code: '34', name: 'Puducherry', short: ['PY'], aliases: ['Pondicherry'] },
  { code: '35', name: 'Andaman and Nicobar Islands', short: ['AN'], utgst: true },
  { code: '36', name: 'Telangana', short: ['TS', 'TG'] },
  { code: '37', name: 'Andhra Pradesh', short: ['AP', 'AD'] },
  { code: '38', name: 'Ladakh', short: ['LA'], utgst: true },
  { code: '97', name: 'Other Territory', short: ['OT'], utgst: true },
  { code: '99', name: 'Centre Jurisdiction', short: ['CJ'] },
];

// Case-, space- and punctuation-insensitive key; '&' reads as 'and'.
const key = (s: string): string => s.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]/g, '');

const BY_CODE = new Map(GST_STATES.map((s) => [s.code, s]));
const BY_KEY = new Map<string, GstState>();
for (const s of GST_STATES) {
  for (const k of [s.name, ...s.short, ...(s.aliases ?? [])]) BY_KEY.set(key(k), s);
}

/** The state for a two-digit code, retired codes included; undefined when unknown. */
export function stateByCode(code: string): GstState | undefined {
  return BY_CODE.get(code);
}

/**
 * Reads a state as typed: the GST code ('27', '7', 27), the name ('maharashtra',
 * 'Jammu & Kashmir') or the short form ('MH'). Returns the current code, the form to store.
 * A retired code with one successor (25) maps to it; one without (28) is refused.
 */
export function parseState(input: string | number): string {
  const raw = String(input).trim();
  const state = /^\d{1,2}$/.test(raw) ? BY_CODE.get(raw.padStart(2, '0')) : BY_KEY.get(key(raw));
  if (!state) throw new GstError(`'${raw}' is not an Indian state or union territory (give the GST code such as 27, the name or the short form such as MH).`);
  if (state.retired) {
    if (state.retired.current) return state.retired.current;
    throw new GstError(`State code ${state.code} ${state.retired.reason}.`);
  }
  return state.code;
}

/** The name to show for a stored code. */
export function stateName(code: string): string {
  const state = BY_CODE.get(code);
  if (!state) throw new GstError(`'${code}' is not a GST state code.`);
  return state.name;
}

/** 'UTGST' for union territories without a legislature, else 'SGST'. */
export function stateTaxName(code: string): 'SGST' | 'UTGST' {
  const state = BY_CODE.get(code);
  if (!state) throw new GstError(`'${code}' is not a GST state code.`);
  return state.utgst ? 'UTGST' : 'SGST';
}
