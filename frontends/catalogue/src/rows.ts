// Pure helpers of the catalogue screens (no React, no styles), so unit tests load them directly.
import { i18n } from '@bahi/i18n';

/** The stock filter's levels; a label is read in the language active when it is shown. */
export const STOCK_LEVELS = (['low', 'on', 'high'] as const).map((key, i) => ({
  value: String(i),
  get label() {
    return i18n.t(`catalogue:stock.${key}`);
  },
}));

/** The rows with row i moved one place up (-1) or down (+1); unchanged at the ends. */
export function moveRow<T>(rows: T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (i < 0 || i >= rows.length || j < 0 || j >= rows.length) return rows;
  const next = [...rows];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}
