import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { useAlert } from './alert';
import { Spinner } from './controls';
import { Pager } from './Pager';
import { footerVisible, pageFromQuery, rowTarget, visibleKeys, type PageBase } from './paging';

export type Row = Record<string, unknown>;

export interface Column<R extends Row = Row> {
  key: string;
  header: ReactNode;
  render?(row: R): ReactNode;
  align?: 'left' | 'right' | 'center';
}

export interface PageResult<R extends Row = Row> {
  rows: R[];
  noOfPages: number;
}

export interface PagedTableProps<R extends Row = Row> {
  title?: ReactNode;
  /** Loads one page; pageNo is zero-based, as in the pageNo query parameter. */
  load(pageNo: number, signal: AbortSignal): Promise<PageResult<R>>;
  /** Defaults to every field of the first row not starting with 'hide'. */
  columns?: Column<R>[];
  /** Makes rows clickable: navigates to `${rowUrl}/${row.hide_url ?? row.id}`. */
  rowUrl?: string;
  /** Reload when any of these change (a search text, for example); page goes back to 0. */
  deps?: unknown[];
  /** Alert shown when a page fails to load (default: the spec's 'unable to connet to server'); null logs only (the sales list does that). */
  loadErrorMessage?: string | null;
  actions?: ReactNode;
  emptyText?: ReactNode;
  testId?: string;
  /** How the pager numbers pages: 0 for back-office lists (spec 001), 1 (default) for the sales side's table (spec 000). */
  pageBase?: PageBase;
}

const label = (key: string) => key.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());

/** The shared paged table of spec 000 ('Shared paged table'). */
export function PagedTable<R extends Row = Row>({
  title,
  load,
  columns,
  rowUrl,
  deps = [],
  loadErrorMessage,
  actions,
  emptyText,
  testId = 'paged-table',
  pageBase = 1,
}: PagedTableProps<R>) {
  const { t } = useTranslation('ui');
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const pageNo = pageFromQuery(params.get('pageNo'));
  const [state, setState] = useState<{ loading: boolean; rows: R[]; noOfPages: number }>({ loading: true, rows: [], noOfPages: 0 });
  const depKey = JSON.stringify(deps);

  const goTo = (p: number) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('pageNo', String(p));
        return next;
      },
      { preventScrollReset: true },
    );

  useEffect(() => {
    const ctrl = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    load(pageNo, ctrl.signal).then(
      (res) => !ctrl.signal.aborted && setState({ loading: false, rows: res.rows ?? [], noOfPages: Number(res.noOfPages) || 0 }),
      (err) => {
        if (ctrl.signal.aborted) return;
        console.error('paged table load failed', err);
        if (loadErrorMessage !== null) alert.error(loadErrorMessage ?? t('table.loadError'));
        setState({ loading: false, rows: [], noOfPages: 0 });
      },
    );
    return () => ctrl.abort();
    // load is usually an inline function; reload on page and on the caller's deps only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pageNo, depKey]);

  // A changed filter starts again from the first page.
  const firstDeps = useRef(depKey);
  useEffect(() => {
    if (firstDeps.current === depKey) return;
    firstDeps.current = depKey;
    if (pageNo !== 0) goTo(0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [depKey]);

  const cols: Column<R>[] = columns ?? visibleKeys(state.rows[0]).map((key) => ({ key, header: label(key) }));
  const { rows, noOfPages, loading } = state;

  return (
    <section className="bk-card bk-table-card" data-testid={testId}>
      {(title || actions) && (
        <header className="bk-card__head">
          {title && <h2>{title}</h2>}
          {actions && <div className="bk-card__actions">{actions}</div>}
        </header>
      )}
      <div className="bk-table-wrap">
        {loading ? (
          <Spinner label={t('table.loading')} />
        ) : (
          <table className={`bk-table ${rowUrl ? 'bk-table--clickable' : ''}`}>
            <thead>
              <tr>
                {cols.map((c) => (
                  <th key={c.key} style={{ textAlign: c.align }}>
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={Math.max(cols.length, 1)} className="bk-table__empty">
                    {emptyText ?? t('table.empty')}
                  </td>
                </tr>
              )}
              {rows.map((row, i) => {
                const to = rowUrl ? rowTarget(rowUrl, row) : undefined;
                return (
                  <tr
                    key={String(row.hide_url ?? row.id ?? i)}
                    onClick={to ? () => navigate(to) : undefined}
                    onKeyDown={to ? (e) => e.key === 'Enter' && navigate(to) : undefined}
                    tabIndex={to ? 0 : undefined}
                    role={to ? 'link' : undefined}
                  >
                    {cols.map((c) => (
                      <td key={c.key} style={{ textAlign: c.align }}>
                        {c.render ? c.render(row) : String(row[c.key] ?? '')}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
      {!loading && footerVisible(noOfPages, rows.length) && <Pager pageNo={pageNo} noOfPages={noOfPages} onPage={goTo} base={pageBase} />}
    </section>
  );
}
