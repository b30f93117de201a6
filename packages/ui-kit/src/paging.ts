// Page arithmetic for the paged lists: pageNo in the URL is always zero-based. What the pager
// shows and its go-to box accept depend on the list (spec 000 §5, 001 §5): back-office lists are
// zero-based (0 <= page < number of pages), the sales side's table starts at 1 (1 <= page <= pages).

export const PAGE_NOT_VALID = 'Page Number Not Valid';

/** 0: back-office lists (catalogue, purchases, distributors, admin); 1: the sales side's table. */
export type PageBase = 0 | 1;

/** The zero-based page for what was typed in the go-to box of a list numbered from `base`, or null when out of range. */
export function pageFromInput(input: string, noOfPages: number, base: PageBase = 1): number | null {
  if (input.trim() === '') return null;
  const n = Number(input);
  if (!Number.isInteger(n) || n < base || n >= noOfPages + base) return null;
  return n - base;
}

/** The number a page is shown as: the zero-based page itself in a back-office list, one more on the sales side. */
export const pageLabel = (pageNo: number, base: PageBase = 1): number => pageNo + base;

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
