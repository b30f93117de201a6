import { useEffect, useRef, useState } from 'react';
import type { ImportKind, ImportMapping, ImportMode, ImportReport, ImportStatus, ImportUploadReply } from '@bahi/contracts';
import { translateServerMessage as server, useTranslation } from '@bahi/i18n';
import { api, errorMessage, requestBlob } from './api';
import { Button, Card } from './controls';
import { fileNameOf, saveFile } from './documents';
import './import.css';

type Step = 'upload' | 'map' | 'report' | 'progress';

const STEPS: Step[] = ['upload', 'map', 'report', 'progress'];

/** Counts as the screens show them, lakh grouping in both languages. */
const n = (v: number) => v.toLocaleString('en-IN');

/**
 * The one import screen of products, customers and distributors: upload a CSV or XLSX, match its
 * columns to the fields (guessed from the headers, editable) with the first rows shown, read the
 * report of bad rows, choose to import the valid rows or nothing unless all are valid, and watch
 * the progress. The server checks every row with the same rules as its form.
 */
export function ImportWizard({ kind, title, onDone, doneLabel }: { kind: ImportKind; title: string; onDone: () => void; doneLabel?: string }) {
  const { t } = useTranslation('ui');
  const [step, setStep] = useState<Step>('upload');
  const [file, setFile] = useState<File | null>(null);
  const [session, setSession] = useState<ImportUploadReply | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [report, setReport] = useState<ImportReport | null>(null);
  const [mode, setMode] = useState<ImportMode>('valid');
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const act = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const upload = () =>
    act(async () => {
      const form = new FormData();
      form.append('file', file!);
      const s = await api.upload<ImportUploadReply>(`/imports/${kind}`, form);
      setSession(s);
      setMapping(s.mapping);
      setReport(null);
      setStep('map');
    });

  const check = () =>
    act(async () => {
      const r = await api.post<ImportReport>(`/imports/${kind}/${session!.id}/validate`, { mapping });
      setReport(r);
      setStep('report');
    });

  const poll = (id: string) => {
    timer.current = setTimeout(async () => {
      try {
        const s = await api.get<ImportStatus>(`/imports/${kind}/${id}`);
        setStatus(s);
        if (s.state === 'running') poll(id);
      } catch (err) {
        setError(errorMessage(err));
      }
    }, 400);
  };

  const run = () =>
    act(async () => {
      const s = await api.post<ImportStatus>(`/imports/${kind}/${session!.id}/run`, { mapping, mode });
      setStatus(s);
      setStep('progress');
      if (s.state === 'running') poll(s.id);
    });

  const used = new Map<number, string>();
  for (const [k, v] of Object.entries(mapping)) if (v >= 0) used.set(v, k);
  const stepIndex = STEPS.indexOf(step);
  const stepLabel = (s: Step) =>
    s === 'upload' ? t('import.steps.upload') : s === 'map' ? t('import.steps.map') : s === 'report' ? t('import.steps.report') : t('import.steps.progress');
  const fieldLabel = (key: string | undefined) => server(session?.fields.find((f) => f.key === key)?.label ?? '');

  return (
    <div className="bk-import" data-testid="import-wizard">
      <div className="bk-page-title">
        <h1>{title}</h1>
      </div>
      <ol className="bk-import__steps">
        {STEPS.map((s, i) => (
          <li key={s} className={i === stepIndex ? 'is-current' : i < stepIndex ? 'is-done' : ''}>
            <span>{i + 1}</span> {stepLabel(s)}
          </li>
        ))}
      </ol>
      {error && (
        <div className="bk-import__error" role="alert">
          {error}
        </div>
      )}

      {step === 'upload' && (
        <Card title={t('import.chooseFile')}>
          <p className="bk-muted">{t('import.fileHelp')}</p>
          <div className="bk-import__upload">
            <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-label={t('import.file')} data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            <Button onClick={upload} busy={busy} disabled={!file} data-testid="import-upload">
              {t('import.upload')}
            </Button>
          </div>
        </Card>
      )}

      {step === 'map' && session && (
        <>
          <Card
            title={t('import.matchColumnsOf', { file: session.fileName })}
            actions={<span className="bk-muted">{t('import.rows', { count: session.total })}</span>}
          >
            <p className="bk-muted">{t('import.matchesBy', { key: server(session.matchBy) })}</p>
            <div className="bk-import__mapping" data-testid="import-mapping">
              {session.fields.map((f) => (
                <label key={f.key} className="bk-import__map">
                  <span>
                    {server(f.label)}
                    {f.required && <b className="bk-import__req"> *</b>}
                  </span>
                  <select
                    value={mapping[f.key] ?? -1}
                    data-field={f.key}
                    onChange={(e) => {
                      const v = Number(e.target.value);
                      setMapping((m) => {
                        const next = { ...m };
                        // One column feeds one field: taking it frees it elsewhere.
                        for (const [k, c] of Object.entries(next)) if (c === v && v >= 0) delete next[k];
                        if (v < 0) delete next[f.key];
                        else next[f.key] = v;
                        return next;
                      });
                    }}
                  >
                    <option value={-1}>{t('import.notImported')}</option>
                    {session.headers.map((h, i) => (
                      <option key={i} value={i}>
                        {h || t('import.column', { n: i + 1 })}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
          </Card>
          <Card title={t('import.firstRows')}>
            <div className="bk-table-wrap">
              <table className="bk-table bk-import__preview" data-testid="import-preview">
                <thead>
                  <tr>
                    <th>{t('import.row')}</th>
                    {session.headers.map((h, i) => (
                      <th key={i} className={used.has(i) ? 'is-used' : 'is-unused'}>
                        {h}
                        <small>{used.has(i) ? `→ ${fieldLabel(used.get(i))}` : t('import.notImportedShort')}</small>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {session.preview.map((r) => (
                    <tr key={r.row}>
                      <td>{r.row}</td>
                      {session.headers.map((_, i) => (
                        <td key={i} className={used.has(i) ? '' : 'is-unused'}>
                          {r.values[i] ?? ''}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Card>
          <div className="bk-import__actions">
            <Button variant="ghost" onClick={() => setStep('upload')}>
              {t('import.chooseAnother')}
            </Button>
            <Button onClick={check} busy={busy} data-testid="import-check">
              {t('import.checkRows')}
            </Button>
          </div>
        </>
      )}

      {step === 'report' && session && report && (
        <>
          <Card title={t('import.checkOfEveryRow')}>
            <div className="bk-import__totals" data-testid="import-report">
              <div>
                <strong>{n(report.total)}</strong> {t('import.rowsWord')}
              </div>
              <div className="is-ok">
                <strong>{n(report.valid)}</strong> {t('import.valid')}
                {report.updates > 0 && <small> {t('import.updates', { count: n(report.updates) })}</small>}
              </div>
              <div className={report.invalid ? 'is-bad' : ''}>
                <strong>{n(report.invalid)}</strong> {t('import.withErrors')}
              </div>
            </div>
            {report.creates?.length ? <p className="bk-muted">{t('import.newCategories', { names: report.creates.join(', ') })}</p> : null}
            {report.errors.length > 0 && (
              <div className="bk-table-wrap bk-import__errors">
                <table className="bk-table" data-testid="import-errors">
                  <thead>
                    <tr>
                      <th>{t('import.row')}</th>
                      <th>{t('import.columnHead')}</th>
                      <th>{t('import.problem')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.errors.map((e, i) => (
                      <tr key={i}>
                        <td>{e.row}</td>
                        <td>{server(e.field)}</td>
                        <td>{server(e.reason)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {report.invalid > report.errors.length && <p className="bk-muted">{t('import.firstProblems', { count: n(report.errors.length) })}</p>}
              </div>
            )}
          </Card>
          <Card title={t('import.whatToImport')}>
            <div className="bk-import__modes" role="radiogroup">
              <label>
                <input type="radio" name="import-mode" checked={mode === 'valid'} onChange={() => setMode('valid')} data-testid="mode-valid" />
                {t('import.modeValid', { count: report.valid })}
              </label>
              <label>
                <input type="radio" name="import-mode" checked={mode === 'all'} onChange={() => setMode('all')} data-testid="mode-all" />
                {t('import.modeAll')}
              </label>
            </div>
          </Card>
          <div className="bk-import__actions">
            <Button variant="ghost" onClick={() => setStep('map')}>
              {t('import.changeColumns')}
            </Button>
            <Button onClick={run} busy={busy} disabled={mode === 'valid' ? report.valid === 0 : report.invalid > 0} data-testid="import-run">
              {t('import.import')}
            </Button>
          </div>
        </>
      )}

      {step === 'progress' && status && (
        <Card title={status.state === 'running' ? t('import.importing') : status.state === 'done' ? t('import.imported') : t('import.notImportedTitle')}>
          <div className="bk-import__bar" role="progressbar" aria-valuemin={0} aria-valuemax={status.total} aria-valuenow={status.done} data-testid="import-progress">
            <span style={{ width: `${status.total ? Math.round((status.done / status.total) * 100) : 0}%` }} />
          </div>
          <p data-testid="import-summary">
            {t('import.summary', {
              done: n(status.done),
              total: n(status.total),
              created: n(status.created),
              updated: n(status.updated),
              skipped: n(status.skipped),
            })}
          </p>
          {status.message && <p className="bk-import__error">{server(status.message)}</p>}
          {status.state !== 'running' && (
            <div className="bk-import__actions">
              {status.state === 'failed' && (
                <Button variant="ghost" onClick={() => setStep('report')}>
                  {t('import.backToReport')}
                </Button>
              )}
              <Button onClick={onDone} data-testid="import-done">
                {doneLabel ?? t('import.done')}
              </Button>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}


/** "Export CSV" and "Export XLSX" for a list: GET /export/{list} with the list's filters applied. */
export function ExportButtons({
  list,
  query,
  onError,
  compact = false,
}: {
  list: string;
  query?: Record<string, string | number | undefined>;
  onError?: (message: string) => void;
  /** "Export: CSV XLSX" for a crowded header. */
  compact?: boolean;
}) {
  const { t } = useTranslation('ui');
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const go = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      const clean = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== '' && v !== undefined));
      const { blob, contentDisposition } = await requestBlob(`/export/${list}`, { query: { ...clean, format } });
      saveFile(blob, fileNameOf(contentDisposition, `${list}.${format}`));
    } catch (err) {
      onError?.(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <span className={compact ? 'bk-export bk-export--compact' : 'bk-export'} data-testid={`export-${list}`}>
      {compact && <span className="bk-muted">{t('export.export')}</span>}
      <Button variant="secondary" busy={busy === 'csv'} onClick={() => go('csv')} aria-label={t('export.csv')}>
        {compact ? t('export.csvShort') : t('export.csv')}
      </Button>
      <Button variant="secondary" busy={busy === 'xlsx'} onClick={() => go('xlsx')} aria-label={t('export.xlsx')}>
        {compact ? t('export.xlsxShort') : t('export.xlsx')}
      </Button>
    </span>
  );
}
