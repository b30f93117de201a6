import { useEffect, useState, type ReactNode } from 'react';
import {
  ApiError,
  Button,
  Card,
  Spinner,
  api,
  errorMessage,
  fileNameOf,
  formatINR,
  requestBlob,
  useAlert,
} from '@bahi/ui-kit';
import type { Gstr3bReply } from '@bahi/contracts';
import { useLanguage, useTranslation } from '@bahi/i18n';
import { TotalsTable, type Column } from './TotalsTable';
import { FilingPanel, QuarterSelect, useGstFiling } from './gst/FilingPanel';
import { quarterOf, returnQuery } from './gst/filing';
import {
  defaultPeriod,
  fallbackFileName,
  formatQty,
  formatRate,
  gstr1Query,
  invoiceRows,
  isEmptyReturn,
  isPeriod,
  monthLabel,
  posLabel,
  sum,
  taxOf,
  type CsvSection,
  type Gstr1,
} from './rules';

type Loaded<T> = { ok: true; data: T } | { ok: false; message: string };
type State =
  { status: 'loading' } | { status: 'done'; period: string; gstr1: Loaded<Gstr1>; gstr3b: Loaded<Gstr3bReply>; quarter?: string };

const settle = <T,>(p: Promise<T>): Promise<Loaded<T>> =>
  p.then(
    (data) => ({ ok: true as const, data }),
    (err: unknown) => ({ ok: false as const, message: errorMessage(err) }),
  );

/** A GSTR table: a totals row only when it has rows and a column with a total. */
function SectionTable<R>({ testId, columns, rows, empty }: { testId: string; columns: Column<R>[]; rows: R[]; empty: string }) {
  const { t } = useTranslation('reports');
  const showTotals = rows.length > 0 && columns.some((c) => c.total !== undefined);
  return <TotalsTable testId={testId} columns={columns} rows={rows} empty={empty} totalLabel={t('gst.total')} showTotals={showTotals} />;
}

const inr = (v: number | undefined) => formatINR(v ?? 0);

/** /reports/gst: GSTR-1 and GSTR-3B of one month, with the portal's JSON and CSV downloads. */
export function GstReturnsPage() {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const [period, setPeriod] = useState(defaultPeriod);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [downloading, setDownloading] = useState<string | null>(null);
  // Monthly or quarterly (QRMP) filing and the filed periods: a quarterly filer's returns are asked by quarter.
  const { filing, state: filingState, ready: filingReady, reload: reloadFiling } = useGstFiling();

  useEffect(() => {
    if (!isPeriod(period) || !filingReady) return;
    let live = true;
    setState({ status: 'loading' });
    void Promise.all([
      settle(api.get<Gstr1>('/gst/gstr1', { query: returnQuery({ period }, filing) })),
      settle(api.get<Gstr3bReply>('/gst/gstr3b', { query: returnQuery({ period }, filing) })),
    ]).then(([gstr1, gstr3b]) => live && setState({ status: 'done', period, gstr1, gstr3b, quarter: filing === 'quarterly' ? quarterOf(period) : undefined }));
    return () => {
      live = false;
    };
    // A filing changes what a quarter reports (an IFF's invoices leave its b2b): read it again.
  }, [period, filing, filingReady, filingState?.periods.length]);

  // The server's bytes and file name, fetched with the session's token (a plain link sends none).
  const download = async (section?: CsvSection) => {
    const key = section ?? 'json';
    setDownloading(key);
    try {
      const { blob, contentDisposition } = await requestBlob('/gst/gstr1', { query: returnQuery(gstr1Query(period, section), filing) });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(contentDisposition, fallbackFileName(period, key));
      a.style.display = 'none';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      alert.error(err instanceof ApiError ? errorMessage(err) : t('gst.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  const csvButton = (section: CsvSection, label = t('gst.downloadCsv')) => (
    <Button
      variant="secondary"
      busy={downloading === section}
      onClick={() => void download(section)}
      data-testid={`download-${section}`}
      aria-label={t('gst.downloadCsvOf', { section: section.toUpperCase() })}
    >
      {label}
    </Button>
  );

  const now = defaultPeriod(new Date(Date.now() + 32 * 86_400_000)); // this month, the latest one can pick
  return (
    <div className="rp-page">
      <div className="bk-page-title">
        <div>
          <h1>{t('gst.title')}</h1>
          <p className="bk-muted rp-sub">{t('gst.sub')}</p>
        </div>
        <div className="rp-controls">
          {filing === 'quarterly' ? (
            <QuarterSelect period={period} max={now} onChange={setPeriod} />
          ) : (
            <label className="rp-month">
              <span>{t('gst.month')}</span>
              <input
                type="month"
                name="period"
                value={period}
                max={now}
                onChange={(e) => e.target.value && setPeriod(e.target.value)}
                data-testid="gst-period"
              />
            </label>
          )}
          <Button
            busy={downloading === 'json'}
            disabled={state.status !== 'done' || !state.gstr1.ok}
            onClick={() => void download()}
            data-testid="download-json"
          >
            {t('gst.downloadJson')}
          </Button>
        </div>
      </div>
      {filing && <FilingPanel period={period} filing={filing} state={filingState} onFiled={reloadFiling} />}
      {state.status === 'loading' ? (
        <Spinner label={t('gst.loading')} />
      ) : (
        <Returns state={state} csvButton={csvButton} />
      )}
    </div>
  );
}

function Returns({
  state,
  csvButton,
}: {
  state: Extract<State, { status: 'done' }>;
  csvButton: (s: CsvSection, label?: string) => ReactNode;
}) {
  const { t } = useTranslation('reports');
  const lng = useLanguage();
  const { gstr1, gstr3b, period } = state;
  // A quarterly filer's return is named by its quarter (2026-27-Q3), a month's by the month.
  const shownPeriod = state.quarter ?? monthLabel(period, lng);
  if (!gstr1.ok) {
    return (
      <Card title={t('gst.cannotPrepare')}>
        <p className="rp-error" role="alert" data-testid="gst-error">
          {gstr1.message}
        </p>
      </Card>
    );
  }
  const r = gstr1.data;
  const b2b = invoiceRows(r.b2b);
  const b2cl = invoiceRows(r.b2cl);
  const b2cs = r.b2cs ?? [];
  const hsn = r.hsn?.data ?? [];
  const docs = (r.doc_issue?.doc_det ?? []).flatMap((d) => d.docs.map((doc) => ({ ...doc, doc_num: d.doc_num })));
  const empty = isEmptyReturn(r);
  // Purchases' input tax can make a 3B worth reading in a month without sales.
  const threeB = gstr3b.ok ? (
    <Gstr3b data={gstr3b.data} />
  ) : (
    <Card title={t('gst.summary3b')}>
      <p className="rp-error" role="alert">
        {gstr3b.message}
      </p>
    </Card>
  );

  return (
    <>
      <div className="bk-stats rp-stats" data-testid="gst-summary">
        <div className="bk-stat">
          <span className="bk-stat__label">{t('gst.gstin')}</span>
          <span className="bk-stat__value bk-stat__value--small" data-testid="gst-gstin">
            {r.gstin}
          </span>
        </div>
        <div className="bk-stat">
          <span className="bk-stat__label">{t('gst.period')}</span>
          <span className="bk-stat__value bk-stat__value--small" data-testid="gst-fp">
            {shownPeriod} ({r.fp})
          </span>
        </div>
        {!empty && (
          <>
            <div className="bk-stat">
              <span className="bk-stat__label">{t('gst.taxable')}</span>
              <span className="bk-stat__value bk-stat__value--small bk-money">
                {inr(sum([...b2b.map((x) => x.txval), ...b2cl.map((x) => x.txval), ...b2cs.map((x) => x.txval)]))}
              </span>
            </div>
            <div className="bk-stat">
              <span className="bk-stat__label">{t('gst.tax')}</span>
              <span className="bk-stat__value bk-stat__value--small bk-money">
                {inr(sum([...b2b.map((x) => x.tax), ...b2cl.map((x) => x.tax), ...b2cs.map(taxOf)]))}
              </span>
            </div>
          </>
        )}
      </div>

      {empty ? (
        <>
          <Card title={t('gst.gstr1')}>
            <p className="rp-empty" data-testid="gst-empty">
              {t('gst.noInvoices', { month: shownPeriod })}
            </p>
          </Card>
          {threeB}
        </>
      ) : (
        <>
          {threeB}
          <Card title={t('gst.b2b', { count: b2b.length })} actions={csvButton('b2b')}>
            <SectionTable
              testId="gst-b2b"
              rows={b2b}
              empty={t('gst.b2bEmpty')}
              columns={[
                { label: t('gst.cols.customerGstin'), cell: (x) => <span className="rp-code">{x.ctin}</span> },
                { label: t('gst.cols.invoiceNo'), cell: (x) => x.inum },
                { label: t('gst.cols.date'), cell: (x) => x.idt },
                { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
                { label: t('gst.cols.invoiceValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(b2b.map((x) => x.val))) },
                {
                  label: t('gst.cols.taxable'),
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2b.map((x) => x.txval))),
                },
                { label: t('gst.cols.tax'), num: true, cell: (x) => inr(x.tax), total: inr(sum(b2b.map((x) => x.tax))) },
              ]}
            />
          </Card>

          <Card title={t('gst.b2cl', { count: b2cl.length })} actions={csvButton('b2cl')}>
            <SectionTable
              testId="gst-b2cl"
              rows={b2cl}
              empty={t('gst.b2clEmpty')}
              columns={[
                { label: t('gst.cols.invoiceNo'), cell: (x) => x.inum },
                { label: t('gst.cols.date'), cell: (x) => x.idt },
                { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
                { label: t('gst.cols.invoiceValue'), num: true, cell: (x) => inr(x.val), total: inr(sum(b2cl.map((x) => x.val))) },
                {
                  label: t('gst.cols.taxable'),
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2cl.map((x) => x.txval))),
                },
                { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cl.map((x) => x.iamt))) },
              ]}
            />
          </Card>

          <Card title={t('gst.b2cs', { count: b2cs.length })} actions={csvButton('b2cs')}>
            <SectionTable
              testId="gst-b2cs"
              rows={b2cs}
              empty={t('gst.b2csEmpty')}
              columns={[
                { label: t('gst.cols.supply'), cell: (x) => (x.sply_ty === 'INTER' ? t('gst.inter') : t('gst.intra')) },
                { label: t('gst.cols.pos'), cell: (x) => posLabel(x.pos) },
                { label: t('gst.cols.rate'), num: true, cell: (x) => formatRate(x.rt) },
                {
                  label: t('gst.cols.taxable'),
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2cs.map((x) => x.txval))),
                },
                { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cs.map((x) => x.iamt))) },
                { label: t('gst.cols.cgst'), num: true, cell: (x) => inr(x.camt), total: inr(sum(b2cs.map((x) => x.camt))) },
                { label: t('gst.cols.sgstUtgst'), num: true, cell: (x) => inr(x.samt), total: inr(sum(b2cs.map((x) => x.samt))) },
              ]}
            />
          </Card>

          <Card title={t('gst.hsn', { count: hsn.length })} actions={csvButton('hsn')}>
            <SectionTable
              testId="gst-hsn"
              rows={hsn}
              empty={t('gst.hsnEmpty')}
              columns={[
                { label: t('gst.cols.hsn'), cell: (x) => <span className="rp-code">{x.hsn_sc}</span> },
                { label: t('gst.cols.description'), cell: (x) => <span className="rp-desc">{x.desc ?? ''}</span> },
                { label: t('gst.cols.uqc'), cell: (x) => x.uqc },
                { label: t('gst.cols.quantity'), num: true, cell: (x) => formatQty(x.qty) },
                { label: t('gst.cols.rate'), num: true, cell: (x) => formatRate(x.rt) },
                {
                  label: t('gst.cols.taxable'),
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(hsn.map((x) => x.txval))),
                },
                { label: t('gst.cols.igst'), num: true, cell: (x) => inr(x.iamt), total: inr(sum(hsn.map((x) => x.iamt))) },
                { label: t('gst.cols.cgst'), num: true, cell: (x) => inr(x.camt), total: inr(sum(hsn.map((x) => x.camt))) },
                { label: t('gst.cols.sgst'), num: true, cell: (x) => inr(x.samt), total: inr(sum(hsn.map((x) => x.samt))) },
                {
                  label: t('gst.cols.totalValue'),
                  num: true,
                  cell: (x) => inr(x.val ?? sum([x.txval, taxOf(x)])),
                  total: inr(sum(hsn.map((x) => x.val ?? sum([x.txval, taxOf(x)])))),
                },
              ]}
            />
          </Card>

          <Card title={t('gst.docs')} actions={csvButton('docs')}>
            <SectionTable
              testId="gst-docs"
              rows={docs}
              empty={t('gst.docsEmpty')}
              columns={[
                {
                  label: t('gst.cols.nature'),
                  cell: (x) => (x.doc_num === 1 ? t('gst.invoicesOutward') : t('gst.docType', { n: x.doc_num })),
                },
                { label: t('gst.cols.from'), cell: (x) => x.from },
                { label: t('gst.cols.to'), cell: (x) => x.to },
                { label: t('gst.cols.total'), num: true, cell: (x) => x.totnum },
                { label: t('gst.cols.cancelled'), num: true, cell: (x) => x.cancel },
                { label: t('gst.cols.netIssued'), num: true, cell: (x) => x.net_issue },
              ]}
            />
          </Card>
        </>
      )}
    </>
  );
}

function Gstr3b({ data }: { data: Gstr3bReply }) {
  const { t } = useTranslation('reports');
  type Row = {
    label: string;
    txval?: number;
    iamt?: number;
    camt?: number;
    samt?: number;
    csamt?: number;
    strong?: boolean;
  };
  const rows: Row[] = [
    { label: t('gst.rows3b.outward'), ...data.outward },
    { label: t('gst.rows3b.nil'), txval: data.nil_exempt.txval },
    { label: t('gst.rows3b.itc'), ...data.itc },
    { label: t('gst.rows3b.payable'), ...data.net_payable, strong: true },
    { label: t('gst.rows3b.carried'), ...data.itc_carried },
  ];
  const cell = (v: number | undefined) => (v === undefined ? '' : inr(v));
  return (
    <Card title={t('gst.summary3b')}>
      <div className="bk-table-wrap">
        <table className="bk-table rp-table" data-testid="gst-3b">
          <thead>
            <tr>
              <th scope="col">{t('gst.cols.head')}</th>
              <th scope="col" className="rp-num">
                {t('gst.cols.taxable')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.igst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.cgst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.sgst')}
              </th>
              <th scope="col" className="rp-num">
                {t('gst.cols.cess')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label} className={r.strong ? 'rp-strong' : undefined}>
                <td>{r.label}</td>
                <td className="rp-num bk-money">{cell(r.txval)}</td>
                <td className="rp-num bk-money">{cell(r.iamt)}</td>
                <td className="rp-num bk-money">{cell(r.camt)}</td>
                <td className="rp-num bk-money">{cell(r.samt)}</td>
                <td className="rp-num bk-money">{cell(r.csamt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.inter_state_unreg.length > 0 && (
        <p className="bk-muted rp-note">
          {t('gst.interUnreg')}{' '}
          {data.inter_state_unreg.map((x) => t('gst.interUnregItem', { pos: posLabel(x.pos), txval: inr(x.txval), iamt: inr(x.iamt) })).join('; ')}
        </p>
      )}
    </Card>
  );
}
