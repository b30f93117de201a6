import { useTranslation } from '@bahi/i18n';
import { Chart } from '../charts/Chart';
import { Loaded, ReportShell, ReportTable, inr, pageOf, useReport, type Col } from './ReportFrame';
import { dmy } from './query';
import type { Ageing, AgeingRow } from './types';

const KEYS = ['side'] as const;
const SIDES = ['receivable', 'payable'] as const;
const BUCKETS = ['b0_30', 'b31_60', 'b61_90', 'b90'] as const;

/** /reports/ageing?side: each party's open dues in 0-30, 31-60, 61-90 and over 90 days, oldest first. */
export function AgeingPage() {
  const { t } = useTranslation('reports');
  const r = useReport<Ageing>('ageing', KEYS);
  const side = r.query.side === 'payable' ? 'payable' : 'receivable';
  const d = r.data;
  const cols: Col<AgeingRow>[] = [
    { key: 'name', label: t(side === 'payable' ? 'pages.cols.distributor' : 'pages.cols.customer'), cell: (x) => x.name || t(side === 'payable' ? 'pages.unnamed.distributor' : 'pages.unnamed.customer', { id: x.partyId }) },
    { key: 'balance', label: t('pages.cols.balance'), num: true, cell: (x) => inr(x.balance), total: d && inr(d.totals.balance) },
    ...BUCKETS.map((b): Col<AgeingRow> => ({ key: b, label: t(`pages.buckets.${b}`), num: true, cell: (x) => (Number(x[b]) ? inr(x[b]) : '—'), total: d && inr(d.totals[b]) })),
    { key: 'oldestDue', label: t('pages.cols.oldestDue'), cell: (x) => dmy(x.oldestDue) },
    { key: 'daysOverdue', label: t('pages.cols.daysOverdue'), num: true, cell: (x) => (x.daysOverdue ? String(x.daysOverdue) : '—') },
  ];
  return (
    <ReportShell
      name="ageing"
      query={r.query}
      filters={
        <div className="rp-quick" role="group" aria-label={t('pages.filters.side')}>
          {SIDES.map((s) => (
            <button key={s} type="button" className={`rp-chip${side === s ? ' rp-chip--on' : ''}`} aria-pressed={side === s} onClick={() => r.set({ side: s })} data-testid={`side-${s}`}>
              {t(`pages.side.${s}`)}
            </button>
          ))}
        </div>
      }
    >
      <Loaded state={r}>
        {(data) => (
          <>
            {Number(data.totals.balance) > 0 && (
              <Chart
                kind="bar"
                title={t('pages.charts.ageing')}
                showTitle
                categoryLabel={t('pages.cols.age')}
                categories={BUCKETS.map((b) => t(`pages.buckets.${b}`))}
                series={[{ name: t('pages.cols.balance'), data: BUCKETS.map((b) => data.totals[b]) }]}
                height={220}
                testId="ageing-chart"
              />
            )}
            <ReportTable
              testId="ageing-table"
              cols={cols}
              rows={data.rows}
              totalLabel={t('pages.total.parties', { count: data.totals.parties })}
              count={data.totals.parties}
              page={pageOf(r.query)}
              onPage={(p) => r.set({ page: String(p) })}
            />
          </>
        )}
      </Loaded>
    </ReportShell>
  );
}
