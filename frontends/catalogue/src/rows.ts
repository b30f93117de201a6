// Pure helpers of the catalogue screens (no React, no styles), so unit tests load them directly.

export const STOCK_LEVELS = [
  { value: '0', label: 'Low' },
  { value: '1', label: 'On' },
  { value: '2', label: 'High' },
];

/** The rows with row i moved one place up (-1) or down (+1); unchanged at the ends. */
export function moveRow<T>(rows: T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (i < 0 || i >= rows.length || j < 0 || j >= rows.length) return rows;
  const next = [...rows];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
