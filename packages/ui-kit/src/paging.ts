// Page arithmetic for the shared paged table: pageNo in the URL is zero-based, the page box
// shows and accepts 1-based numbers (minimum 1).

export const PAGE_NOT_VALID = 'Page Number Not Valid';

/** The zero-based page for a typed 1-based page number, or null when out of range. */
export function pageFromInput(input: string, noOfPages: number): number | null {
  const n = Number(input);
  if (!Number.isInteger(n) || n < 1 || n > noOfPages) return null;
  return n - 1;
}

/** Zero-based pageNo from the query string; anything invalid is page 0. */
export function pageFromQuery(raw: string | null): number {
  const n = Number(raw ?? 0);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

/** The footer is hidden when there is a single page holding a single row (or nothing). */
export function footerVisible(noOfPages: number, rowCount: number): boolean {
  return !(noOfPages <= 1 && rowCount <= 1);
}

/** Columns shown for a row: every field except those whose name starts with 'hide'. */
export function visibleKeys(row: Record<string, unknown> | undefined): string[] {
  return row ? Object.keys(row).filter((k) => !k.startsWith('hide')) : [];
}

/** Navigation target of a clicked row: hide_url, when present, replaces id. */
export function rowTarget(rowUrl: string, row: Record<string, unknown>): string {
  const id = row.hide_url ?? row.id;
  return `${rowUrl.replace(/\/$/, '')}/${String(id)}`;
}
