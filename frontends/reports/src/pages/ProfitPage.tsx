import { useTranslation } from '@bahi/i18n';
import { Chart } from '../charts/Chart';
import { Loaded, RangeFilter, ReportShell, ReportTable, inr, pageOf, useReport, type Col } from './ReportFrame';
import type { Profit, ProfitRow } from './types';

const KEYS = ['from', 'to', 'by'] as const;
const BYS = ['product', 'category', 'month'] as const;

/** /reports/profit?from&to&by: sales value less the cost frozen at the sale. */
export function ProfitPage() {
  const { t } = useTranslation('reports');
  const r = useReport<Profit>('profit', KEYS);
  const by = (BYS as readonly string[]).includes(r.query.by ?? '') ? (r.query.by as Profit['by']) : 'product';
  const d = r.data;
  const pct = (v: number | null) => (v === null ? '—' : `${v.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`);
  const first: Col<ProfitRow>[] =
    by === 'month'
      ? [{ key: 'month', label: t('pages.cols.month'), cell: (x) => monthName(x.month ?? '') }]
      : by === 'category'
        ? [{ key: 'category', label: t('pages.cols.category'), cell: (x) => x.category || t('pages.noCategory') }]
        : [{ key: 'name', label: t('pages.cols.product'), cell: (x) => x.name ?? `#${x.productId}` }];
  const cols: Col<ProfitRow>[] = [
    ...first,
    ...(by === 'month' ? [] : [{ key: 'qty', label: t('pages.cols.qty'), num: true, cell: (x: ProfitRow) => (x.qty ?? 0).toLocaleString('en-IN', { maximumFractionDigits: 3 }) }]),
    { key: 'value', label: t('pages.cols.salesValue'), num: true, cell: (x) => inr(x.value), total: d && inr(d.totals.value) },
    { key: 'cost', label: t('pages.cols.cost'), num: true, cell: (x) => inr(x.cost), total: d && inr(d.totals.cost) },
    { key: 'profit', label: t('pages.cols.profit'), num: true, cell: (x) => <span className={Number(x.profit) < 0 ? 'rp-neg' : undefined}>{inr(x.profit)}</span>, total: d && inr(d.totals.profit) },
    { key: 'margin', label: t('pages.cols.margin'), num: true, cell: (x) => pct(x.marginPct) },
  ];
  const costless = d && Number(d.totals.valueWithoutCost) !== 0;
  return (
    <ReportShell
      name="profit"
      query={r.query}
      filters={
        <>
          <RangeFilter from={r.query.from ?? d?.from ?? ''} to={r.query.to ?? d?.to ?? ''} set={r.set} />
          <div className="rp-quick" role="group" aria-label={t('pages.filters.by')}>
            {BYS.map((b) => (
              <button key={b} type="button" className={`rp-chip${by === b ? ' rp-chip--on' : ''}`} aria-pressed={by === b} onClick={() => r.set({ by: b })} data-testid={`by-${b}`}>
                {t(`pages.by.${b}`)}
              </button>
            ))}
          </div>
        </>
      }
    >
      <Loaded state={r}>
        {(data) => (
          <>
            {by !== 'product' && data.rows.length > 0 && (
              <Chart
                kind="bar"
                title={t(by === 'month' ? 'pages.charts.profitByMonth' : 'pages.charts.profitByCategory')}
                showTitle
                categoryLabel={t(by === 'month' ? 'pages.cols.month' : 'pages.cols.category')}
                categories={data.rows.map((x) => (by === 'month' ? monthName(x.month ?? '') : x.category || t('pages.noCategory')))}
                series={[
                  { name: t('pages.cols.salesValue'), data: data.rows.map((x) => x.value) },
                  { name: t('pages.cols.profit'), data: data.rows.map((x) => x.profit) },
                ]}
                height={240}
                testId="profit-chart"
              />
            )}
            {costless && (
              <p className="bk-muted rp-note" data-testid="profit-costless">
                {t('pages.profitCostless', { amount: inr(data.totals.valueWithoutCost) })}
              </p>
            )}
            <ReportTable
              testId="profit-table"
              cols={cols}
              rows={data.rows}
              totalLabel={t('pages.total.plain')}
              count={null}
              page={pageOf(r.query)}
              onPage={by === 'product' ? (p) => r.set({ page: String(p) }) : undefined}
            />
          </>
        )}
      </Loaded>
    </ReportShell>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2026-04 -> Apr 2026 (month names stay en-IN as dates do). */
export function monthName(m: string): string {
  const x = /^(\d{4})-(\d{2})$/.exec(m);
  return x ? `${MONTHS[Number(x[2]) - 1]} ${x[1]}` : m;
}
