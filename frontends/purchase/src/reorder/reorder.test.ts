import type { ReorderGroup, ReorderLine } from '@bahi/contracts';
import { applyLanguage, i18n } from '@bahi/i18n';
import '../i18n';
import { commonDistributor, quantityError, reorderDocumentPath, selectedLines } from './reorder';

beforeAll(async () => {
  await applyLanguage('en');
  await i18n.loadNamespaces('purchase');
});

const line = (product_id: number, suggested_quantity: string): ReorderLine => ({
  product_id, product_name: `P${product_id}`, brand_name: '', unit: 'pcs', per_peice_quantity: '1', stock: '0', min_stock: '5', default_stock: '10',
  cp: '1.00', last_cp: null, last_purchase_date: null, last_purchase_id: null, suggested_quantity, suggested_units: suggested_quantity,
});
const groups: ReorderGroup[] = [
  { distributorId: 4, distributorName: 'Gupta', lines: [line(1, '9'), line(2, '2')] },
  { distributorId: 0, distributorName: 'No purchase yet', lines: [line(3, '14')] },
];

describe('reorder page rules', () => {
  it('sends the selected lines with the typed quantity, else the suggestion', () => {
    expect(selectedLines(groups, new Set([1, 3]), { 3: ' 20 ' })).toEqual([{ product_id: 1, quantity: '9' }, { product_id: 3, quantity: '20' }]);
    expect(selectedLines(groups, new Set(), {})).toEqual([]);
  });

  it('preselects a distributor only when every selected line is last bought from it', () => {
    expect(commonDistributor(groups, new Set([1, 2]))).toBe(4);
    expect(commonDistributor(groups, new Set([1, 3]))).toBeNull();
    // The "No purchase yet" group names no distributor.
    expect(commonDistributor(groups, new Set([3]))).toBeNull();
  });

  it('prints the selected lines of a group, or all of it', () => {
    expect(reorderDocumentPath(groups[0]!, new Set([2, 3]))).toBe('/documents/reorder/4?products=2');
    expect(reorderDocumentPath(groups[0]!, new Set())).toBe('/documents/reorder/4');
  });

  it('takes order quantities above 0 with at most 3 decimals', () => {
    expect(quantityError('12')).toBeNull();
    expect(quantityError('2.5')).toBeNull();
    expect(quantityError('0')).not.toBeNull();
    expect(quantityError('-1')).not.toBeNull();
    expect(quantityError('1.2345')).not.toBeNull();
    expect(quantityError('')).toBe('Order quantity must be a number above 0 (at most 3 decimals).');
  });
});
