import { useCallback, useEffect, useState } from 'react';
import { ApiError, Button, Card, api, errorMessage, fileNameOf, requestBlob, saveFile, todayISO, useAlert } from '@bahi/ui-kit';
import { useLanguage, useTranslation } from '@bahi/i18n';
import { monthLabel } from '../rules';
import { filedOf, quarterMonths, quarterOf, recentQuarters, type FilingState, type GstFiling } from './filing';

/** The company's filing frequency and filed periods (GET /gst/periods); null until known or when the company files no returns. */
export function useGstFiling(): { filing: GstFiling | null; state: FilingState | null; ready: boolean; reload: () => void } {
  const [state, setState] = useState<FilingState | null>(null);
  const [ready, setReady] = useState(false);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    const done = (s: FilingState | null) => {
      if (!live) return;
      setState(s);
      setReady(true);
    };
    api.get<FilingState>('/gst/periods').then(done, () => done(null));
    return () => {
      live = false;
    };
  }, [tick]);
  return { filing: state?.gst_filing ?? null, state, ready, reload: useCallback(() => setTick((n) => n + 1), []) };
}

/** A quarterly filer picks a quarter; the page keeps the quarter's last month as its period. */
export function QuarterSelect({ period, max, onChange }: { period: string; max: string; onChange: (month: string) => void }) {
  const { t } = useTranslation('reports');
  const current = quarterOf(period);
  return (
    <label className="rp-month">
      <span>{t('filing.quarter')}</span>
      <select name="quarter" value={current} onChange={(e) => onChange(quarterMonths(e.target.value)[2]!)} data-testid="gst-quarter">
        {recentQuarters(max).map((q) => (
          <option key={q.label} value={q.label}>
            {q.label}
          </option>
        ))}
      </select>
    </label>
  );
}


/**
 * The returns of the chosen period and whether each is filed: a monthly filer's GSTR-1, or a
 * quarterly filer's two IFFs (with their downloads) and the quarter's GSTR-1. "Mark filed" takes
 * the ARN the portal gave; the server keeps the JSON as exported at that moment.
 */
export function FilingPanel({ period, filing, state, onFiled }: { period: string; filing: GstFiling; state: FilingState | null; onFiled: () => void }) {
  const { t } = useTranslation('reports');
  const lng = useLanguage();
  const alert = useAlert();
  const [open, setOpen] = useState<string | null>(null);
  const [arn, setArn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const quarter = quarterOf(period);
  const months = quarterMonths(quarter);
  // A return is filed after its period: Mark filed is offered once the last month has ended.
  const thisMonth = todayISO().slice(0, 7);
  const rows: { period: string; name: string; iff: boolean; ended: boolean }[] =
    filing === 'quarterly'
      ? [
          ...months.slice(0, 2).map((m) => ({ period: m, name: t('filing.iffOf', { month: monthLabel(m, lng) }), iff: true, ended: m < thisMonth })),
          { period: quarter, name: t('filing.gstr1Of', { period: quarter }), iff: false, ended: months[2]! < thisMonth },
        ]
      : [{ period, name: t('filing.gstr1Of', { period: monthLabel(period, lng) }), iff: false, ended: period < thisMonth }];

  const downloadIff = async (month: string) => {
    setBusy(`iff-${month}`);
    try {
      const { blob, contentDisposition } = await requestBlob('/gst/iff', { query: { period: month } });
      saveFile(blob, fileNameOf(contentDisposition, `IFF_${month.slice(5)}${month.slice(0, 4)}.json`));
    } catch (err) {
      alert.error(err instanceof ApiError ? errorMessage(err) : t('gst.downloadFailed'));
    } finally {
      setBusy(null);
    }
  };

  const markFiled = async (p: string, name: string) => {
    setBusy(`file-${p}`);
    setError(null);
    try {
      await api.post(`/gst/periods/${encodeURIComponent(p)}/filed`, { arn: arn.trim() });
      setOpen(null);
      setArn('');
      alert.success(t('filing.marked', { period: name }));
      onFiled();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={filing === 'quarterly' ? t('filing.titleQuarter', { quarter }) : t('filing.title')}>
      <div className="bk-table-wrap">
        <table className="bk-table rp-table" data-testid="gst-filing">
          <tbody>
            {rows.map((r) => {
              const f = filedOf(state, r.period);
              return (
                <tr key={r.period} data-testid={`filing-${r.period}`}>
                  <td>{r.name}</td>
                  <td>
                    {f ? (
                      <span className="bk-badge bk-badge--success" data-testid={`filed-${r.period}`}>
                        {t('filing.filed', { arn: f.arn })}
                      </span>
                    ) : (
                      <span className="bk-badge">{t('filing.notFiled')}</span>
                    )}
                  </td>
                  <td className="rp-num">
                    {r.iff && (
                      <Button variant="secondary" busy={busy === `iff-${r.period}`} onClick={() => void downloadIff(r.period)} data-testid={`download-iff-${r.period}`}>
                        {t('filing.downloadIff')}
                      </Button>
                    )}{' '}
                    {!f && r.ended && open !== r.period && (
                      <Button
                        variant="secondary"
                        onClick={() => {
                          setOpen(r.period);
                          setError(null);
                        }}
                        data-testid={`mark-filed-${r.period}`}
                      >
                        {t('filing.markFiled')}
                      </Button>
                    )}
                    {open === r.period && (
                      <form
                        className="rp-arn"
                        onSubmit={(e) => {
                          e.preventDefault();
                          void markFiled(r.period, r.name);
                        }}
                      >
                        <label>
                          <span>{t('filing.arn')}</span>{' '}
                          <input name="arn" value={arn} maxLength={20} autoComplete="off" spellCheck={false} onChange={(e) => setArn(e.target.value.toUpperCase())} data-testid="arn-input" />
                        </label>{' '}
                        <Button type="submit" busy={busy === `file-${r.period}`} data-testid="arn-save">
                          {t('filing.save')}
                        </Button>{' '}
                        <Button variant="secondary" type="button" onClick={() => setOpen(null)}>
                          {t('filing.cancel')}
                        </Button>
                        {error && (
                          <p className="rp-error" role="alert" data-testid="arn-error">
                            {error}
                          </p>
                        )}
                      </form>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="bk-muted rp-note">{t('filing.note')}</p>
    </Card>
  );
}
