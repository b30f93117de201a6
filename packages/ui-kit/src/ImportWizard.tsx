import { useEffect, useRef, useState } from 'react';
import type { ImportKind, ImportMapping, ImportMode, ImportReport, ImportStatus, ImportUploadReply } from '@bahi/contracts';
import { api, errorMessage, requestBlob } from './api';
import { Button, Card } from './controls';
import { fileNameOf } from './documents';
import './import.css';

type Step = 'upload' | 'map' | 'report' | 'progress';

const STEPS: { key: Step; label: string }[] = [
  { key: 'upload', label: 'Upload' },
  { key: 'map', label: 'Match columns' },
  { key: 'report', label: 'Check rows' },
  { key: 'progress', label: 'Import' },
];

/**
 * The one import screen of products, customers and distributors: upload a CSV or XLSX, match its
 * columns to the fields (guessed from the headers, editable) with the first rows shown, read the
 * report of bad rows, choose to import the valid rows or nothing unless all are valid, and watch
 * the progress. The server checks every row with the same rules as its form.
 */
export function ImportWizard({ kind, title, onDone, doneLabel = 'Done' }: { kind: ImportKind; title: string; onDone: () => void; doneLabel?: string }) {
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
  const stepIndex = STEPS.findIndex((s) => s.key === step);

  return (
    <div className="bk-import" data-testid="import-wizard">
      <div className="bk-page-title">
        <h1>{title}</h1>
      </div>
      <ol className="bk-import__steps">
        {STEPS.map((s, i) => (
          <li key={s.key} className={i === stepIndex ? 'is-current' : i < stepIndex ? 'is-done' : ''}>
            <span>{i + 1}</span> {s.label}
          </li>
        ))}
      </ol>
      {error && (
        <div className="bk-import__error" role="alert">
          {error}
        </div>
      )}

      {step === 'upload' && (
        <Card title="Choose a file">
          <p className="bk-muted">A CSV or Excel (.xlsx) sheet whose first row names the columns, up to 20 MB.</p>
          <div className="bk-import__upload">
            <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-label="File" data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            <Button onClick={upload} busy={busy} disabled={!file} data-testid="import-upload">
              Upload
            </Button>
          </div>
        </Card>
      )}

      {step === 'map' && session && (
        <>
          <Card title={`Match the columns of ${session.fileName}`} actions={<span className="bk-muted">{session.total.toLocaleString('en-IN')} rows</span>}>
            <p className="bk-muted">Matches by {session.matchBy}</p>
            <div className="bk-import__mapping" data-testid="import-mapping">
              {session.fields.map((f) => (
                <label key={f.key} className="bk-import__map">
                  <span>
                    {f.label}
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
                    <option value={-1}>— not imported —</option>
                    {session.headers.map((h, i) => (
                      <option key={i} value={i}>
                        {h || `Column ${i + 1}`}
                      </option>
                    ))}
                  </select>
                </label>
              ))}
            </div>
          </Card>
          <Card title="First rows of the file">
            <div className="bk-table-wrap">
              <table className="bk-table bk-import__preview" data-testid="import-preview">
                <thead>
                  <tr>
                    <th>Row</th>
                    {session.headers.map((h, i) => (
                      <th key={i} className={used.has(i) ? 'is-used' : 'is-unused'}>
                        {h}
                        <small>{used.has(i) ? `→ ${session.fields.find((f) => f.key === used.get(i))?.label}` : 'not imported'}</small>
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
              Choose another file
            </Button>
            <Button onClick={check} busy={busy} data-testid="import-check">
              Check rows
            </Button>
          </div>
        </>
      )}

      {step === 'report' && session && report && (
        <>
          <Card title="Check of every row">
            <div className="bk-import__totals" data-testid="import-report">
              <div>
                <strong>{report.total.toLocaleString('en-IN')}</strong> rows
              </div>
              <div className="is-ok">
                <strong>{report.valid.toLocaleString('en-IN')}</strong> valid
                {report.updates > 0 && <small> ({report.updates.toLocaleString('en-IN')} update existing)</small>}
              </div>
              <div className={report.invalid ? 'is-bad' : ''}>
                <strong>{report.invalid.toLocaleString('en-IN')}</strong> with errors
              </div>
            </div>
            {report.creates?.length ? <p className="bk-muted">New categories will be created: {report.creates.join(', ')}.</p> : null}
            {report.errors.length > 0 && (
              <div className="bk-table-wrap bk-import__errors">
                <table className="bk-table" data-testid="import-errors">
                  <thead>
                    <tr>
                      <th>Row</th>
                      <th>Column</th>
                      <th>Problem</th>
                    </tr>
                  </thead>
                  <tbody>
                    {report.errors.map((e, i) => (
                      <tr key={i}>
                        <td>{e.row}</td>
                        <td>{e.field}</td>
                        <td>{e.reason}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {report.invalid > report.errors.length && <p className="bk-muted">The first {report.errors.length} problems are shown.</p>}
              </div>
            )}
          </Card>
          <Card title="What to import">
            <div className="bk-import__modes" role="radiogroup">
              <label>
                <input type="radio" name="import-mode" checked={mode === 'valid'} onChange={() => setMode('valid')} data-testid="mode-valid" />
                Import the {report.valid.toLocaleString('en-IN')} valid rows and skip the rest
              </label>
              <label>
                <input type="radio" name="import-mode" checked={mode === 'all'} onChange={() => setMode('all')} data-testid="mode-all" />
                Import nothing unless every row is valid
              </label>
            </div>
          </Card>
          <div className="bk-import__actions">
            <Button variant="ghost" onClick={() => setStep('map')}>
              Change the columns
            </Button>
            <Button onClick={run} busy={busy} disabled={mode === 'valid' ? report.valid === 0 : report.invalid > 0} data-testid="import-run">
              Import
            </Button>
          </div>
        </>
      )}

      {step === 'progress' && status && (
        <Card title={status.state === 'running' ? 'Importing…' : status.state === 'done' ? 'Imported' : 'Not imported'}>
          <div className="bk-import__bar" role="progressbar" aria-valuemin={0} aria-valuemax={status.total} aria-valuenow={status.done} data-testid="import-progress">
            <span style={{ width: `${status.total ? Math.round((status.done / status.total) * 100) : 0}%` }} />
          </div>
          <p data-testid="import-summary">
            {status.done.toLocaleString('en-IN')} of {status.total.toLocaleString('en-IN')} rows · {status.created.toLocaleString('en-IN')} added · {status.updated.toLocaleString('en-IN')} updated ·{' '}
            {status.skipped.toLocaleString('en-IN')} skipped
          </p>
          {status.message && <p className="bk-import__error">{status.message}</p>}
          {status.state !== 'running' && (
            <div className="bk-import__actions">
              {status.state === 'failed' && (
                <Button variant="ghost" onClick={() => setStep('report')}>
                  Back to the report
                </Button>
              )}
              <Button onClick={onDone} data-testid="import-done">
                {doneLabel}
              </Button>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}

/** Saves a blob under a name (a temporary link click). */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
  const [busy, setBusy] = useState<'csv' | 'xlsx' | null>(null);
  const go = async (format: 'csv' | 'xlsx') => {
    setBusy(format);
    try {
      const clean = Object.fromEntries(Object.entries(query ?? {}).filter(([, v]) => v !== '' && v !== undefined));
      const { blob, contentDisposition } = await requestBlob(`/export/${list}`, { query: { ...clean, format } });
      save(blob, fileNameOf(contentDisposition, `${list}.${format}`));
    } catch (err) {
      onError?.(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <span className={compact ? 'bk-export bk-export--compact' : 'bk-export'} data-testid={`export-${list}`}>
      {compact && <span className="bk-muted">Export</span>}
      <Button variant="secondary" busy={busy === 'csv'} onClick={() => go('csv')} aria-label="Export CSV">
        {compact ? 'CSV' : 'Export CSV'}
      </Button>
      <Button variant="secondary" busy={busy === 'xlsx'} onClick={() => go('xlsx')} aria-label="Export XLSX">
        {compact ? 'XLSX' : 'Export XLSX'}
      </Button>
    </span>
  );
}
