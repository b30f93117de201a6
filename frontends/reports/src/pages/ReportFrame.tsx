// What every report page shares: the reports menu, the URL-held filters, the quick ranges, the
// export and PDF buttons, the table with its totals row and the pager.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { NavLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, Pager, Spinner, api, errorMessage, fileNameOf, formatINR, openDocument, requestBlob, saveFile, useAlert } from '@bahi/ui-kit';
import { TotalsTable, type Column } from '../TotalsTable';
import { DeadLettersNotice } from './DeadLetters';
import { PAGE_SIZE, PDF_REPORTS, QUICK_RANGES, REPORT_NAMES, activeRange, istToday, nextParams, pageCount, queryOf, queryString, quickRange, type ReportName } from './query';

/** The reports menu: each report and the GST returns page. */
export function ReportsMenu() {
  const { t } = useTranslation('reports');
  return (
    <nav className="rp-menu" aria-label={t('pages.menu')} data-testid="reports-menu">
      {REPORT_NAMES.map((n) => (
        <NavLink key={n} to={`/reports/${n}`} className={({ isActive }) => `rp-menu__item${isActive ? ' rp-menu__item--active' : ''}`} data-testid={`menu-${n}`}>
          {t(`pages.titles.${n}`)}
        </NavLink>
      ))}
      <NavLink to="/reports/gst" className={({ isActive }) => `rp-menu__item${isActive ? ' rp-menu__item--active' : ''}`} data-testid="menu-gst">
        {t('gst.title')}
      </NavLink>
    </nav>
  );
}

export interface ReportState<T> {
  params: URLSearchParams;
  /** The report's query as the URL holds it (only what was chosen; the service fills defaults). */
  query: Record<string, string>;
  set(patch: Record<string, string | null | undefined>): void;
  data: T | null;
  error: string | null;
  loading: boolean;
}

/** A report's filters live in the URL (shareable; Back undoes a change); the report reloads on each change. */
export function useReport<T>(name: ReportName, keys: readonly string[]): ReportState<T> {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => queryOf(params, [...keys, 'page']), [params, keys]);
  const key = JSON.stringify(query);
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({ key: '', data: null, error: null });
  useEffect(() => {
    let live = true;
    api.get<T>(`/reports/${name}`, { query }).then(
      (data) => live && setState({ key, data, error: null }),
      (err: unknown) => live && setState({ key, data: null, error: errorMessage(err) }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, key]);
  return {
    params,
    query,
    set: (patch) => setParams(nextParams(params, patch)),
    data: state.data,
    error: state.error,
    loading: state.key !== key,
  };
}

/** Page title, the menu, the filter bar and the actions. */
export function ReportShell(props: { name: ReportName; query: Record<string, string>; filters: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('reports');
  return (
    <div className="rp-page rp-report" data-testid={`report-${props.name}`}>
      <ReportsMenu />
      <DeadLettersNotice />
      <div className="bk-page-title">
        <div>
          <h1>{t(`pages.titles.${props.name}`)}</h1>
          <p className="bk-muted rp-sub">{t(`pages.subtitles.${props.name}`)}</p>
        </div>
        <ReportActions name={props.name} query={props.query} />
      </div>
      <div className="rp-filters" data-testid="report-filters">
        {props.filters}
      </div>
      {props.children}
    </div>
  );
}


/** CSV and XLSX of every row with the filters applied (the service's `?format=`), and the PDF through documents. */
export function ReportActions({ name, query }: { name: ReportName; query: Record<string, string> }) {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const [busy, setBusy] = useState<'csv' | 'xlsx' | 'pdf' | null>(null);
  const filters = Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'page'));
  const exportAs = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      const { blob, contentDisposition } = await requestBlob(`/reports/${name}`, { query: { ...filters, format } });
      saveFile(blob, fileNameOf(contentDisposition, `${name}.${format}`));
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  const pdf = async () => {
    setBusy('pdf');
    try {
      await openDocument(`/documents/report/${name}${queryString(filters)}`, { newTab: true });
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="rp-actions">
      <Button variant="secondary" busy={busy === 'csv'} onClick={() => void exportAs('csv')} data-testid="export-csv">
        {t('pages.export.csv')}
      </Button>
      <Button variant="secondary" busy={busy === 'xlsx'} onClick={() => void exportAs('xlsx')} data-testid="export-xlsx">
        {t('pages.export.xlsx')}
      </Button>
      {PDF_REPORTS.includes(name) && (
        <Button busy={busy === 'pdf'} onClick={() => void pdf()} data-testid="export-pdf">
          {t('pages.export.pdf')}
        </Button>
      )}
    </div>
  );
}

/** From/to date boxes and the quick ranges; shows the range the service applied when none was chosen. */
export function RangeFilter({ from, to, set }: { from: string; to: string; set(p: Record<string, string | null>): void }) {
  const { t } = useTranslation('reports');
  const today = istToday();
  const active = activeRange(from, to, today);
  return (
    <>
      <label className="rp-month">
        <span>{t('pages.filters.from')}</span>
        <input type="date" name="from" value={from} max={to || today} onChange={(e) => e.target.value && set({ from: e.target.value })} data-testid="filter-from" />
      </label>
      <label className="rp-month">
        <span>{t('pages.filters.to')}</span>
        <input type="date" name="to" value={to} min={from} max={today} onChange={(e) => e.target.value && set({ to: e.target.value })} data-testid="filter-to" />
      </label>
      <div className="rp-quick" role="group" aria-label={t('pages.quick.label')}>
        {QUICK_RANGES.map((r) => (
          <button
            key={r}
            type="button"
            className={`rp-chip${active === r ? ' rp-chip--on' : ''}`}
            aria-pressed={active === r}
            onClick={() => set(quickRange(r, today))}
            data-testid={`quick-${r}`}
          >
            {t(`pages.quick.${r}`)}
          </button>
        ))}
      </div>
    </>
  );
}

/** A report page's column: it names its key (the totals cell's data-col). */
export type Col<R> = Column<R> & { key: string };

export const inr = (v: string | number | null | undefined) => formatINR(v ?? 0);

/** The report's table: its rows, the totals row and the pager (100 rows a page, as the service pages). */
export function ReportTable<R>(props: {
  testId: string;
  cols: Col<R>[];
  rows: R[];
  /** The totals row's first cell ("Total, 12 bills"). */
  totalLabel: string;
  /** Rows of the whole report when the totals count them, else null (pages run while they come full). */
  count: number | null;
  page: number;
  onPage?(page: number): void;
}) {
  const { t } = useTranslation('reports');
  const { cols, rows } = props;
  const pages = pageCount(props.count, props.page, rows.length);
  return (
    <Card className="rp-card-body-flush">
      <TotalsTable testId={props.testId} columns={cols} rows={rows} empty={t('pages.empty')} totalLabel={props.totalLabel} showTotals />
      {props.onPage && pages > 1 && <Pager pageNo={props.page} noOfPages={pages} onPage={props.onPage} className="rp-pager" />}
    </Card>
  );
}

/** Loading, an error with its sentence, or the report. */
export function Loaded<T>({ state, children }: { state: ReportState<T>; children(data: T): ReactNode }) {
  const { t } = useTranslation('reports');
  if (state.error) {
    return (
      <Card>
        <p className="rp-error" role="alert" data-testid="report-error">
          {state.error}
        </p>
      </Card>
    );
  }
  if (!state.data) return <Spinner label={t('pages.loading')} />;
  return <div className={state.loading ? 'rp-stale' : undefined}>{children(state.data)}</div>;
}

export const pageOf = (q: Record<string, string>) => (q.page && /^\d+$/.test(q.page) ? Number(q.page) : 0);
export { PAGE_SIZE };

/** A row's tenders as the server gave them ("Cash ₹642.00 · Card ₹1,000.00"). */
export function Tenders({ payments }: { payments: { mode: string; amount: string }[] }) {
  const { t } = useTranslation('reports');
  if (!payments.length) return <>—</>;
  return <span className="rp-tenders">{payments.map((p) => `${t(`pages.modes.${p.mode}`)} ${inr(p.amount)}`).join(' · ')}</span>;
}
