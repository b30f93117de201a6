import { useTranslation } from '@bahi/i18n';
import { Loaded, RangeFilter, ReportShell, ReportTable, Tenders, inr, pageOf, useReport, type Col } from './ReportFrame';
import { dmy } from './query';
import type { Cashbook, CashbookRow } from './types';

const KEYS = ['from', 'to', 'mode'] as const;
const MODES = ['cash', 'bank'] as const;

/** /reports/cashbook?from&to&mode: every cash (or bank: UPI, card, cheque, bank) movement with the running balance the server keeps. */
export function CashbookPage() {
  const { t } = useTranslation('reports');
  const r = useReport<Cashbook>('cashbook', KEYS);
  const mode = r.query.mode === 'bank' ? 'bank' : 'cash';
  const d = r.data;
  const party = (x: CashbookRow) => (x.kind === 'expense' ? t(`pages.categories.${x.party}`, { defaultValue: x.party }) : x.party || '—');
  const cols: Col<CashbookRow>[] = [
    { key: 'date', label: t('pages.cols.date'), cell: (x) => dmy(x.date) },
    { key: 'kind', label: t('pages.cols.kind'), cell: (x) => <span className={`rp-kind rp-kind--${x.kind}`}>{t(`pages.kinds.${x.kind}`)}</span> },
    { key: 'docNo', label: t('pages.cols.number'), cell: (x) => x.docNo ?? (x.ref ? `#${x.ref}` : '—') },
    { key: 'party', label: t('pages.cols.party'), cell: party },
    { key: 'payments', label: t('pages.cols.payments'), cell: (x) => <Tenders payments={x.payments} /> },
    { key: 'in', label: t('pages.cols.in'), num: true, cell: (x) => inr(x.in), total: d && inr(d.totals.in) },
    { key: 'out', label: t('pages.cols.out'), num: true, cell: (x) => inr(x.out), total: d && inr(d.totals.out) },
    { key: 'balance', label: t('pages.cols.runningBalance'), num: true, cell: (x) => <span className={x.balance.startsWith('-') ? 'rp-neg' : undefined}>{inr(x.balance)}</span>, total: d && inr(d.totals.closing) },
  ];
  return (
    <ReportShell
      name="cashbook"
      query={r.query}
      filters={
        <>
          <div className="rp-quick" role="group" aria-label={t('pages.filters.mode')}>
            {MODES.map((m) => (
              <button key={m} type="button" className={`rp-chip${mode === m ? ' rp-chip--on' : ''}`} aria-pressed={mode === m} onClick={() => r.set({ mode: m, page: null })} data-testid={`mode-${m}`}>
                {t(`pages.book.${m}`)}
              </button>
            ))}
          </div>
          <RangeFilter from={r.query.from ?? d?.from ?? ''} to={r.query.to ?? d?.to ?? ''} set={r.set} />
        </>
      }
    >
      <Loaded state={r}>
        {(data) => (
          <>
            <div className="bk-stats rp-stats" data-testid="cashbook-totals">
              {(['opening', 'in', 'out', 'closing'] as const).map((k) => (
                <div className="bk-stat" key={k}>
                  <span className="bk-stat__label">{t(`pages.book.${k}`)}</span>
                  <span className="bk-stat__value bk-stat__value--small bk-money" data-testid={`cashbook-${k}`}>
                    {inr(data.totals[k])}
                  </span>
                </div>
              ))}
            </div>
            {data.openingDate && (
              <p className="bk-muted rp-note" data-testid="cashbook-opening-date">
                {t('pages.book.since', { date: dmy(data.openingDate) })}
              </p>
            )}
            <ReportTable testId="cashbook-table" cols={cols} rows={data.rows} totalLabel={t('pages.total.plain')} count={null} page={pageOf(r.query)} onPage={(p) => r.set({ page: String(p) })} />
          </>
        )}
      </Loaded>
    </ReportShell>
  );
}
