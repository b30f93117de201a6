// The reorder page's rules, kept apart from React so they are unit-tested.
import type { FillCartRequest, ReorderGroup } from '@bahi/contracts';
import { i18n } from '@bahi/i18n';

/** A typed order quantity: a number above 0 with at most 3 decimals (the cart's own rule). */
export function quantityError(text: string): string | null {
  const t = text.trim();
  if (!/^(\d+(\.\d{0,3})?|\.\d{1,3})$/.test(t) || Number(t) <= 0) return i18n.t('purchase:reorder.quantityError');
  return null;
}

/** The fill-cart lines for the selected products, with the typed quantity or the suggestion. */
export function selectedLines(groups: ReorderGroup[], selected: ReadonlySet<number>, typed: Readonly<Record<number, string>>): FillCartRequest['lines'] {
  return groups.flatMap((g) =>
    g.lines.filter((l) => selected.has(l.product_id)).map((l) => ({ product_id: l.product_id, quantity: (typed[l.product_id] ?? l.suggested_quantity).trim() })),
  );
}

/** The distributor to preselect at Proceed to purchase: the one group every selected line belongs to, else none. */
export function commonDistributor(groups: ReorderGroup[], selected: ReadonlySet<number>): number | null {
  const ids = new Set(groups.filter((g) => g.lines.some((l) => selected.has(l.product_id))).map((g) => g.distributorId));
  if (ids.size !== 1) return null;
  const [only] = [...ids];
  return only ? only : null;
}

/** `/documents/reorder/<distributor>?products=..`: the selected lines of the group, or all of it when none is selected. */
export function reorderDocumentPath(group: ReorderGroup, selected: ReadonlySet<number>): string {
  const chosen = group.lines.filter((l) => selected.has(l.product_id)).map((l) => l.product_id);
  return `/documents/reorder/${group.distributorId}${chosen.length ? `?products=${chosen.join(',')}` : ''}`;
}
