import { useEffect, useRef, useState, type ReactNode } from 'react';
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
  saveFile,
  useAlert,
} from '@bahi/ui-kit';
import type { Gstr3bReply } from '@bahi/contracts';
import { useLanguage, useTranslation } from '@bahi/i18n';
import { Gstr1Sections } from './gst/Gstr1Sections';
import { Gstr3bCard } from './gst/Gstr3bCard';
import { TallyCard } from './gst/TallyCard';
import { FilingPanel, QuarterSelect, useGstFiling } from './gst/FilingPanel';
import { quarterOf, returnQuery } from './gst/filing';
import {
  defaultPeriod,
  fallbackFileName,
  gstr1Query,
  invoiceRows,
  isEmptyReturn,
  isPeriod,
  monthLabel,
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

const inr = (v: number | undefined) => formatINR(v ?? 0);


/** /reports/gst: GSTR-1 and GSTR-3B of one month, with the portal's JSON and CSV downloads. */
export function GstReturnsPage() {
  const { t } = useTranslation('reports');
  const alert = useAlert();
  const [period, setPeriodState] = useState(defaultPeriod);
  // Opens on the latest month that has invoices (the server knows it); the month before this one when none.
  // A month picked before the answer comes is kept.
  const [opened, setOpened] = useState(false);
  const picked = useRef(false);
  const setPeriod = (p: string) => {
    picked.current = true;
    setPeriodState(p);
  };
  useEffect(() => {
    let live = true;
    void api
      .get<{ period: string | null }>('/gst/latest-period')
      .then((r) => live && !picked.current && r.period && isPeriod(r.period) && setPeriodState(r.period))
      .catch(() => undefined)
      .finally(() => live && setOpened(true));
    return () => {
      live = false;
    };
  }, []);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [downloading, setDownloading] = useState<string | null>(null);
  // Monthly or quarterly (QRMP) filing and the filed periods: a quarterly filer's returns are asked by quarter.
  const { filing, state: filingState, ready: filingReady, reload: reloadFiling } = useGstFiling();

  useEffect(() => {
    if (!isPeriod(period) || !filingReady || !opened) return;
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
  }, [period, filing, filingReady, opened, filingState?.periods.length]);

  // The server's bytes and file name, fetched with the session's token (a plain link sends none).
  const download = async (section?: CsvSection) => {
    const key = section ?? 'json';
    setDownloading(key);
    try {
      const { blob, contentDisposition } = await requestBlob('/gst/gstr1', { query: returnQuery(gstr1Query(period, section), filing) });
      saveFile(blob, fileNameOf(contentDisposition, fallbackFileName(period, key)));
    } catch (err) {
      alert.error(err instanceof ApiError ? errorMessage(err) : t('gst.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };

  // GSTR-3B in the portal's JSON: the server's file as it is.
  const download3b = async () => {
    setDownloading('3b');
    try {
      const { blob, contentDisposition } = await requestBlob('/gst/gstr3b', { query: { ...returnQuery({ period }, filing), format: 'json' } });
      saveFile(blob, fileNameOf(contentDisposition, `GSTR3B_${period.slice(5, 7)}${period.slice(0, 4)}.json`));
    } catch (err) {
      alert.error(err instanceof ApiError ? errorMessage(err) : t('gst.downloadFailed'));
    } finally {
      setDownloading(null);
    }
  };
  const download3bButton = (
    <Button variant="secondary" busy={downloading === '3b'} onClick={() => void download3b()} data-testid="download-3b-json">
      {t('gst.download3bJson')}
    </Button>
  );

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
        <Returns state={state} csvButton={csvButton} download3b={download3bButton} />
      )}
      <TallyCard />
    </div>
  );
}

function Returns({
  state,
  csvButton,
  download3b,
}: {
  state: Extract<State, { status: 'done' }>;
  csvButton: (s: CsvSection, label?: string) => ReactNode;
  download3b: ReactNode;
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
  const empty = isEmptyReturn(r);
  // Purchases' input tax can make a 3B worth reading in a month without sales.
  const threeB = gstr3b.ok ? (
    <Gstr3bCard data={gstr3b.data} download={download3b} />
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
          <Gstr1Sections r={r} csvButton={csvButton} />
        </>
      )}
    </>
  );
}
