/** A field an import fills, with the header names people use for it. */
export interface ImportField {
  key: string;
  label: string;
  required?: boolean;
  /** Other header names (any case, spaces and punctuation ignored). */
  aliases?: string[];
}

/** Field key -> column index (0-based) in the sheet; a field left out is not imported. */
export type ColumnMapping = Record<string, number>;

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9%]+/g, '');

/**
 * Guesses which column feeds each field: an exact name (key, label or alias) first, then a header
 * that contains one of them; a column feeds one field at most.
 */
export function guessMapping(headers: string[], fields: ImportField[]): ColumnMapping {
  const out: ColumnMapping = {};
  const taken = new Set<number>();
  const names = (f: ImportField) => [f.key, f.label, ...(f.aliases ?? [])].map(norm).filter(Boolean);
  const h = headers.map(norm);
  for (const pass of ['exact', 'contains'] as const) {
    for (const f of fields) {
      if (out[f.key] !== undefined) continue;
      const idx = h.findIndex((x, i) => !taken.has(i) && x !== '' && names(f).some((n) => (pass === 'exact' ? x === n : n.length > 2 && x.includes(n))));
      if (idx >= 0) {
        out[f.key] = idx;
        taken.add(idx);
      }
    }
  }
  return out;
}

/**
 * Checks a mapping sent by a client against the fields and the sheet's columns; returns a message
 * for the user when it is wrong.
 */
export function checkMapping(mapping: unknown, fields: ImportField[], columns: number): string | null {
  if (!mapping || typeof mapping !== 'object' || Array.isArray(mapping)) return 'mapping must be an object of field to column number.';
  const used = new Map<number, string>();
  for (const [k, v] of Object.entries(mapping as Record<string, unknown>)) {
    const f = fields.find((x) => x.key === k);
    if (!f) return `Unknown field in mapping: ${k}.`;
    if (v === null || v === undefined || v === -1) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= columns) return `The column for ${f.label} is not a column of the file.`;
    if (used.has(v)) return `${used.get(v)} and ${f.label} cannot both come from the same column.`;
    used.set(v, f.label);
  }
  const missing = fields.filter((f) => f.required && !(typeof (mapping as ColumnMapping)[f.key] === 'number' && (mapping as ColumnMapping)[f.key]! >= 0));
  if (missing.length) return `Choose a column for ${missing.map((f) => f.label).join(', ')}.`;
  return null;
}

/** A mapped row: field key -> the cell's text ('' when the cell is empty, absent when unmapped). */
export function mapRow(values: string[], mapping: ColumnMapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, i] of Object.entries(mapping)) if (typeof i === 'number' && i >= 0) out[k] = values[i] ?? '';
  return out;
}
