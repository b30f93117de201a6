/**
 * The GST portal's Unit Quantity Codes (GSTR-1 Table 12, e-invoice and e-way bill master) with
 * their names as the offline tool's CSV writes them ('PCS-PIECES'). Source: the GSTN UQC master,
 * as India Compliance lists it (india_compliance/gst_india/constants UOM_MAP); see README.
 */
export const UQC_NAMES: Readonly<Record<string, string>> = {
  BAG: 'BAGS', BAL: 'BALE', BDL: 'BUNDLES', BKL: 'BUCKLES', BOU: 'BILLION OF UNITS', BOX: 'BOX', BTL: 'BOTTLES',
  BUN: 'BUNCHES', CAN: 'CANS', CBM: 'CUBIC METERS', CCM: 'CUBIC CENTIMETERS', CMS: 'CENTIMETERS', CTN: 'CARTONS',
  DOZ: 'DOZENS', DRM: 'DRUMS', GGK: 'GREAT GROSS', GMS: 'GRAMMES', GRS: 'GROSS', GYD: 'GROSS YARDS', KGS: 'KILOGRAMS',
  KLR: 'KILOLITRE', KME: 'KILOMETRE', LTR: 'LITRES', MLT: 'MILILITRE', MTR: 'METERS', MTS: 'METRIC TON', NOS: 'NUMBERS',
  OTH: 'OTHERS', PAC: 'PACKS', PCS: 'PIECES', PRS: 'PAIRS', QTL: 'QUINTAL', ROL: 'ROLLS', SET: 'SETS', SQF: 'SQUARE FEET',
  SQM: 'SQUARE METERS', SQY: 'SQUARE YARDS', TBS: 'TABLETS', TGM: 'TEN GROSS', THD: 'THOUSANDS', TON: 'TONNES', TUB: 'TUBES',
  UGS: 'US GALLONS', UNT: 'UNITS', YDS: 'YARDS',
};
export const UQC_CODES: readonly string[] = Object.keys(UQC_NAMES);

/** Shop units (lower case, spaces and dots removed) per code; a unit not listed is OTH. */
const UNITS: Record<string, string[]> = {
  PCS: ['pcs', 'pc', 'piece', 'pieces'],
  KGS: ['kg', 'kgs', 'kilo', 'kilos', 'kilogram', 'kilograms'],
  GMS: ['g', 'gm', 'gms', 'gram', 'grams', 'gramme', 'grammes'],
  LTR: ['l', 'ltr', 'ltrs', 'litre', 'litres', 'liter', 'liters'],
  MLT: ['ml', 'mlt', 'millilitre', 'millilitres', 'milliliter', 'milliliters'],
  KLR: ['kl', 'klr', 'kilolitre', 'kilolitres', 'kiloliter', 'kiloliters'],
  BOX: ['box', 'boxes'],
  CTN: ['ctn', 'carton', 'cartons'],
  DOZ: ['doz', 'dozen', 'dozens'],
  PAC: ['pac', 'pack', 'packs', 'packet', 'packets', 'pkt', 'pkts'],
  BAG: ['bag', 'bags'],
  BAL: ['bale', 'bales'],
  BDL: ['bdl', 'bundle', 'bundles'],
  BTL: ['btl', 'bottle', 'bottles'],
  CAN: ['can', 'cans'],
  DRM: ['drum', 'drums'],
  TUB: ['tube', 'tubes'],
  TBS: ['tab', 'tabs', 'tablet', 'tablets'],
  ROL: ['roll', 'rolls', 'rol'],
  MTR: ['m', 'mtr', 'mtrs', 'meter', 'meters', 'metre', 'metres'],
  CMS: ['cm', 'cms', 'centimetre', 'centimetres', 'centimeter', 'centimeters'],
  KME: ['km', 'kme', 'kilometre', 'kilometres', 'kilometer', 'kilometers'],
  YDS: ['yd', 'yds', 'yard', 'yards'],
  SQF: ['sqft', 'sqf', 'squarefeet', 'squarefoot', 'sqfeet'],
  SQM: ['sqm', 'sqmtr', 'squaremetre', 'squaremetres', 'squaremeter', 'squaremeters'],
  SQY: ['sqyd', 'sqy', 'squareyard', 'squareyards'],
  CBM: ['cbm', 'cum', 'cubicmetre', 'cubicmetres', 'cubicmeter', 'cubicmeters'],
  CCM: ['cc', 'ccm', 'cubiccentimetre', 'cubiccentimetres'],
  QTL: ['qtl', 'quintal', 'quintals'],
  // TON (tonnes) and MTS (metric ton) name the same 1,000 kg; shops say tonne, the tool's master has both.
  TON: ['ton', 'tons', 'tonne', 'tonnes'],
  MTS: ['mt', 'mts', 'metricton', 'metrictons', 'metrictonne', 'metrictonnes'],
  SET: ['set', 'sets'],
  PRS: ['prs', 'pair', 'pairs'],
  GRS: ['gross'],
  THD: ['thd', 'thousand', 'thousands'],
  NOS: ['nos', 'no', 'number', 'numbers'],
  UNT: ['unt', 'unit', 'units'],
  OTH: ['oth', 'other', 'others'],
};
const UQC_BY_UNIT = new Map(Object.entries(UNITS).flatMap(([code, units]) => units.map((u) => [u, code] as const)));

/**
 * Maps a product's unit to a UQC. An official code typed as the unit ('QTL') is itself; a unit
 * nothing fits (a sheet, a foot) is OTH, which the portal accepts for units outside its list.
 */
export function toUqc(unit: string): string {
  const key = String(unit ?? '').toLowerCase().replace(/[\s.]/g, '');
  return UQC_BY_UNIT.get(key) ?? (UQC_NAMES[key.toUpperCase()] ? key.toUpperCase() : 'OTH');
}

/** A UQC as the offline tool's CSV templates write it: 'PCS-PIECES'; an unknown code is OTH-OTHERS. */
export function uqcLabel(uqc: string): string {
  const code = String(uqc ?? '').toUpperCase();
  return UQC_NAMES[code] ? `${code}-${UQC_NAMES[code]}` : 'OTH-OTHERS';
}
