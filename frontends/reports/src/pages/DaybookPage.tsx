import { useTranslation } from '@bahi/i18n';
import { Button } from '@bahi/ui-kit';
import { Loaded, ReportShell, ReportTable, Tenders, inr, pageOf, useReport, type Col } from './ReportFrame';
import { addDays, dmy, isDate, istToday } from './query';
import type { Daybook, DaybookRow } from './types';

const KEYS = ['date'] as const;

/** /reports/daybook?date&page: a day's transactions, 100 a page, the whole day's totals; the previous and next day a click away. */
export function DaybookPage() {
  const { t } = useTranslation('reports');
  const r = useReport<Daybook>('daybook', KEYS);
  const today = istToday();
  const date = isDate(r.query.date) ? r.query.date : (r.data?.date ?? today);
  const cols: Col<DaybookRow>[] = [
    { key: 'kind', label: t('pages.cols.kind'), cell: (x) => <span className={`rp-kind rp-kind--${x.kind}`}>{t(`pages.kinds.${x.kind}`)}</span> },
    { key: 'docNo', label: t('pages.cols.number'), cell: (x) => x.docNo ?? `#${x.ref}` },
    { key: 'party', label: t('pages.cols.party'), cell: (x) => (x.kind === 'expense' ? t(`pages.categories.${x.party}`, { defaultValue: x.party }) : x.party || '—') },
    { key: 'amount', label: t('pages.cols.amount'), num: true, cell: (x) => inr(x.amount) },
    { key: 'cashIn', label: t('pages.cols.cashIn'), num: true, cell: (x) => inr(x.cashIn), total: r.data && inr(r.data.totals.cashIn) },
    { key: 'cashOut', label: t('pages.cols.cashOut'), num: true, cell: (x) => inr(x.cashOut), total: r.data && inr(r.data.totals.cashOut) },
    { key: 'bankIn', label: t('pages.cols.bankIn'), num: true, cell: (x) => inr(x.bankIn), total: r.data && inr(r.data.totals.bankIn) },
    { key: 'bankOut', label: t('pages.cols.bankOut'), num: true, cell: (x) => inr(x.bankOut), total: r.data && inr(r.data.totals.bankOut) },
    { key: 'payments', label: t('pages.cols.payments'), cell: (x) => <Tenders payments={x.payments ?? []} /> },
  ];
  return (
    <ReportShell
      name="daybook"
      query={r.query}
      filters={
        <>
          <Button variant="secondary" onClick={() => r.set({ date: addDays(date, -1) })} data-testid="day-prev" aria-label={t('pages.day.prevLabel')}>
            {t('pages.day.prev')}
          </Button>
          <label className="rp-month">
            <span>{t('pages.filters.date')}</span>
            <input type="date" name="date" value={date} max={today} onChange={(e) => e.target.value && r.set({ date: e.target.value })} data-testid="filter-date" />
          </label>
          <Button variant="secondary" disabled={date >= today} onClick={() => r.set({ date: addDays(date, 1) })} data-testid="day-next" aria-label={t('pages.day.nextLabel')}>
            {t('pages.day.next')}
          </Button>
          <Button variant="ghost" disabled={date === today} onClick={() => r.set({ date: today })} data-testid="quick-today">
            {t('pages.quick.today')}
          </Button>
        </>
      }
    >
      <Loaded state={r}>
        {(d) => (
          <>
            <div className="bk-stats rp-stats" data-testid="daybook-kinds">
              <div className="bk-stat">
                <span className="bk-stat__label">{t('pages.day.of')}</span>
                <span className="bk-stat__value bk-stat__value--small">{dmy(d.date)}</span>
              </div>
              {Object.entries(d.totals.byKind).map(([k, v]) => (
                <div className="bk-stat" key={k}>
                  <span className="bk-stat__label">{t(`pages.kinds.${k}`)}</span>
                  <span className="bk-stat__value bk-stat__value--small bk-money">{inr(v)}</span>
                </div>
              ))}
            </div>
            <ReportTable
              testId="daybook-table"
              cols={cols}
              rows={d.rows}
              totalLabel={t('pages.total.entries', { count: d.totals.count })}
              count={d.totals.count}
              page={pageOf(r.query)}
              onPage={(p) => r.set({ page: String(p) })}
            />
          </>
        )}
      </Loaded>
    </ReportShell>
  );
}
