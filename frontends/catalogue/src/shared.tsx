import { i18n } from '@bahi/i18n';
import { api, formatINR } from '@bahi/ui-kit';
import { STOCK_LEVELS } from './rows';

export { moveRow, STOCK_LEVELS } from './rows';

export interface Named {
  id: number;
  name: string;
}
export interface Spec {
  field_name: string;
  default_value: string;
  is_number: boolean;
  priority: number;
  alias: string;
}
export interface ProductRow extends Record<string, unknown> {
  product_id: number;
  product_name: string;
  brand_name: string;
  category: string;
  unit: string;
  mrp: string;
  cp: string;
  stock: string;
  stock_level: number;
  active: number;
  image_url: string;
}


/** Printing is the documents service's; until it answers, say so plainly. */
export const PRINT_FAILED = () => i18n.t('catalogue:common.printFailed');
/** The catalogue's connection failure, in the active language. */
export const CONNECT_FAILED = () => i18n.t('catalogue:common.connectFailed');

export const loadCategoryBrand = () => api.get<{ brand: string[]; cat: Named[] }>('/getCategoryBrand');

export function LevelBadge({ level }: { level: number }) {
  const map = ['bk-badge--danger', '', 'bk-badge--success'];
  return <span className={`bk-badge ${map[level] ?? ''}`}>{STOCK_LEVELS[level]?.label ?? '-'}</span>;
}

export const money = (v: string | number) => formatINR(v);

