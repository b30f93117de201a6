/** Input the readers refuse (not a spreadsheet, no header row, over a limit): the message is for the user. */
export class TabularError extends Error {}

/** What one upload may hold; each refusal names its limit. */
export interface ReadLimits {
  /** Records after the header row, blank ones included (a flood of blank lines costs work too). */
  maxRows: number;
  /** Columns of a row (Excel's own limit, XFD). */
  maxColumns: number;
  /** Characters of one cell (Excel keeps at most 32,767). */
  maxCellChars: number;
  /** Characters of one CSV line or one XLSX row. */
  maxLineChars: number;
  /** An XLSX part larger than this must not expand more than `maxRatio` times its compressed size. */
  ratioFreeBytes: number;
  maxRatio: number;
  /** All parts of an XLSX file together, unpacked. */
  maxUnpackedBytes: number;
  /** Characters of the shared strings table of an XLSX file, all strings together. */
  maxSharedChars: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxRows: Infinity,
  maxColumns: 16_384,
  maxCellChars: 32_768,
  maxLineChars: 1024 * 1024,
  ratioFreeBytes: 1024 * 1024,
  maxRatio: 100,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxSharedChars: 32 * 1024 * 1024,
};

export const limitsOf = (l?: Partial<ReadLimits>): ReadLimits => ({ ...DEFAULT_LIMITS, ...l });

const MB = 1024 * 1024;
/** A size for a sentence: "1 MB", "200 MB", "512 KB". */
export const sizeText = (bytes: number) => (bytes >= MB ? `${+(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const num = (n: number) => n.toLocaleString('en-IN');

/** The sentences of the limits, one place. */
export const tooMany = {
  rows: (l: ReadLimits) => `The file has more than ${num(l.maxRows)} rows (blank lines count too); split it into smaller files.`,
  columns: (l: ReadLimits, row: number) => `Row ${row} has more than ${num(l.maxColumns)} columns, the most a sheet may have.`,
  cell: (l: ReadLimits, row: number) => `Row ${row} has a cell longer than ${num(l.maxCellChars)} characters, the most a cell may hold.`,
  line: (l: ReadLimits, row: number) => `Row ${row} is longer than ${sizeText(l.maxLineChars)}, the most a row may hold.`,
};
