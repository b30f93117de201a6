import { useCallback, useEffect, useState } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, Spinner, api, requestBlob, saveFile, useAlert } from '@bahi/ui-kit';

/** GET /admin/backups (answered by the platform: packages/devstack/src/backup-agent.ts). */
interface BackupRow {
  name: string;
  at: string;
  size: number;
  good: boolean;
  copied: boolean | null;
  encrypted: boolean;
  problems: string[];
}
interface BackupList {
  last_good: string | null;
  list: BackupRow[];
  dir: string;
  copy_dir: string | null;
  copy_ok: boolean | null;
  running: boolean;
  next_at: string;
  at: string;
}

/** A date and time on India's clock, as the shop reads it. */
const when = (iso: string, lng: string) =>
  new Date(iso).toLocaleString(lng === 'hi' ? 'hi-IN' : 'en-IN', {
    timeZone: 'Asia/Kolkata',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
const megabytes = (n: number) => (n / 1048576).toFixed(n < 10485760 ? 2 : 1);

/** Setting > Backups of the platform admin: the verified backups, back up now, download. */
export function BackupsPage() {
  const { t, i18n } = useTranslation('admin');
  const alert = useAlert();
  const [data, setData] = useState<BackupList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    try {
      setData(await api.get<BackupList>('/admin/backups'));
      setError(null);
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 501
          ? t('backups.unavailable')
          : translateServerMessage((err as Error).message),
      );
    }
  }, [t]);

  useEffect(() => {
    void load();
  }, [load]);
  // While a backup is being made and verified, the list is read again every 2 s.
  useEffect(() => {
    if (!data?.running) return;
    const timer = setInterval(() => void load(), 2000);
    return () => clearInterval(timer);
  }, [data?.running, load]);

  const backUpNow = async () => {
    setStarting(true);
    try {
      await api.post('/admin/backups');
      alert.success(t('backups.started'));
      await load();
    } catch (err) {
      alert.error(translateServerMessage((err as Error).message));
    } finally {
      setStarting(false);
    }
  };

  const download = async (name: string) => {
    try {
      const { blob } = await requestBlob(`/admin/backups/${encodeURIComponent(name)}`);
      saveFile(blob, name);
    } catch (err) {
      alert.error(translateServerMessage((err as Error).message));
    }
  };

  if (error)
    return (
      <div className="bk-card bk-card__body" data-testid="backups-error">
        {error}
      </div>
    );
  if (!data) return <Spinner />;
  const lng = i18n.language;
  return (
    <div data-testid="backups">
      <div className="bk-page-title">
        <h1>{t('backups.title')}</h1>
        <Button onClick={backUpNow} busy={starting || data.running} data-testid="backup-now">
          {data.running ? t('backups.running') : t('backups.now')}
        </Button>
      </div>
      <Card title={t('backups.where')}>
        <dl className="ad-facts">
          <dt>{t('backups.lastGood')}</dt>
          <dd data-testid="backups-last-good">{data.last_good ? when(data.last_good, lng) : t('backups.none')}</dd>
          <dt>{t('backups.daily')}</dt>
          <dd>{t('backups.dailyAt', { at: data.at, next: when(data.next_at, lng) })}</dd>
          <dt>{t('backups.dir')}</dt>
          <dd>
            <code>{data.dir}</code>
          </dd>
          <dt>{t('backups.copyDir')}</dt>
          <dd data-testid="backups-copy">
            {data.copy_dir ? (
              <>
                <code>{data.copy_dir}</code>{' '}
                {data.copy_ok ? t('backups.copyOk') : <strong className="ad-bad">{t('backups.copyMissing')}</strong>}
              </>
            ) : (
              t('backups.noCopy')
            )}
          </dd>
        </dl>
      </Card>
      <table className="bk-table" data-testid="backup-list">
        <thead>
          <tr>
            <th>{t('backups.taken')}</th>
            <th>{t('backups.file')}</th>
            <th className="ad-num">{t('backups.size')}</th>
            <th>{t('backups.verified')}</th>
            <th>{t('backups.copied')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {data.list.length === 0 && (
            <tr>
              <td colSpan={6}>{t('backups.empty')}</td>
            </tr>
          )}
          {data.list.map((b) => (
            <tr key={b.name} data-testid="backup-row">
              <td>{when(b.at, lng)}</td>
              <td>
                <code>{b.name}</code>
                {b.encrypted && <span className="ad-tag">{t('backups.encrypted')}</span>}
              </td>
              <td className="ad-num">{t('backups.mb', { mb: megabytes(b.size) })}</td>
              <td>
                {b.good ? (
                  <span className="ad-good">{t('backups.good')}</span>
                ) : (
                  <span className="ad-bad" title={b.problems.join(' ')}>
                    {t('backups.notGood')}
                  </span>
                )}
              </td>
              <td>{b.copied === null ? '—' : b.copied ? t('backups.yes') : t('backups.no')}</td>
              <td>
                <Button variant="secondary" onClick={() => void download(b.name)}>
                  {t('backups.download')}
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="bk-muted">{t('backups.restoreHint')}</p>
    </div>
  );
}
