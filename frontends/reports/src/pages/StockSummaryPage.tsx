import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';
import { Chart } from '../charts/Chart';
import { Loaded, ReportShell, ReportTable, inr, pageOf, useReport, type Col } from './ReportFrame';
import { PAGE_SIZE, sumBy } from './query';
import type { StockRow, StockSummary } from './types';

const KEYS = ['category', 'brand'] as const;

/** /reports/stock-summary?category&brand: quantity, value at cost and at MRP per product. */
export function StockSummaryPage() {
  const { t } = useTranslation('reports');
  const r = useReport<StockSummary>('stock-summary', KEYS);
  const [choices, setChoices] = useState<{ brand: string[]; cat: { id: number; name: string }[] }>({ brand: [], cat: [] });
  useEffect(() => {
    api.get<{ brand: string[]; cat: { id: number; name: string }[] }>('/getCategoryBrand').then(
      (x) => setChoices({ brand: x.brand ?? [], cat: x.cat ?? [] }),
      () => undefined,
    );
  }, []);
  const d = r.data;
  const qty = (n: number) => n.toLocaleString('en-IN', { maximumFractionDigits: 3 });
  const cols: Col<StockRow>[] = [
    { key: 'name', label: t('pages.cols.product'), cell: (x) => x.name },
    { key: 'category', label: t('pages.cols.category'), cell: (x) => x.category || '—' },
    { key: 'brand', label: t('pages.cols.brand'), cell: (x) => x.brand || '—' },
    { key: 'stock', label: t('pages.cols.stock'), num: true, cell: (x) => qty(x.stock), total: d && qty(d.totals.stock) },
    { key: 'cp', label: t('pages.cols.cp'), num: true, cell: (x) => inr(x.cp) },
    { key: 'mrp', label: t('pages.cols.mrp'), num: true, cell: (x) => inr(x.mrp) },
    { key: 'costValue', label: t('pages.cols.costValue'), num: true, cell: (x) => inr(x.costValue), total: d && inr(d.totals.costValue) },
    { key: 'mrpValue', label: t('pages.cols.mrpValue'), num: true, cell: (x) => inr(x.mrpValue), total: d && inr(d.totals.mrpValue) },
  ];
  return (
    <ReportShell
      name="stock-summary"
      query={r.query}
      filters={
        <>
          <label className="rp-month">
            <span>{t('pages.filters.category')}</span>
            <select name="category" value={r.query.category ?? ''} onChange={(e) => r.set({ category: e.target.value })} data-testid="filter-category">
              <option value="">{t('pages.filters.allCategories')}</option>
              {choices.cat.map((c) => (
                <option key={c.id} value={c.name}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <label className="rp-month">
            <span>{t('pages.filters.brand')}</span>
            <select name="brand" value={r.query.brand ?? ''} onChange={(e) => r.set({ brand: e.target.value })} data-testid="filter-brand">
              <option value="">{t('pages.filters.allBrands')}</option>
              {choices.brand.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </label>
        </>
      }
    >
      <Loaded state={r}>
        {(data) => {
          const byCat = sumBy(data.rows, (x) => x.category || t('pages.noCategory'), (x) => x.costValue);
          return (
            <>
              {byCat.keys.length > 1 && (
                <Chart
                  kind="bar"
                  horizontal
                  title={data.totals.products > PAGE_SIZE ? t('pages.charts.stockByCategoryPage') : t('pages.charts.stockByCategory')}
                  showTitle
                  categoryLabel={t('pages.cols.category')}
                  categories={byCat.keys}
                  series={[{ name: t('pages.cols.costValue'), data: byCat.sums }]}
                  height={Math.min(320, 60 + byCat.keys.length * 28)}
                  testId="stock-chart"
                />
              )}
              <ReportTable
                testId="stock-summary-table"
                cols={cols}
                rows={data.rows}
                totalLabel={t('pages.total.products', { count: data.totals.products })}
                count={data.totals.products}
                page={pageOf(r.query)}
                onPage={(p) => r.set({ page: String(p) })}
              />
            </>
          );
        }}
      </Loaded>
    </ReportShell>
  );
}
