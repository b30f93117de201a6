import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';

/** GET /backupStatus (the platform answers it: packages/devstack/src/backup-agent.ts). */
interface BackupWarning {
  reasons: ('stale' | 'never' | 'copy_missing')[];
  last_good: string | null;
  copy_dir: string | null;
}

/**
 * Managers and the platform admin see this while the last good backup is more than 36 hours old
 * (a new installation: 36 hours after its first start) or the backup copy location is missing.
 * Where backups are not run by this installation (501), nothing shows.
 */
export function BackupBanner({ position }: { position?: string }) {
  const { t, i18n } = useTranslation('shell');
  const [warning, setWarning] = useState<BackupWarning | null>(null);
  useEffect(() => {
    if (position !== 'manager' && position !== 'admin') return;
    let live = true;
    api
      .get<BackupWarning>('/backupStatus', { authRedirect: false })
      .then((w) => live && setWarning(w))
      .catch(() => live && setWarning(null));
    return () => {
      live = false;
    };
  }, [position]);
  if (!warning?.reasons.length) return null;
  const last = warning.last_good
    ? new Date(warning.last_good).toLocaleString(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', {
        timeZone: 'Asia/Kolkata',
        dateStyle: 'medium',
        timeStyle: 'short',
      })
    : '';
  const who = position === 'admin' ? 'admin' : 'manager';
  return (
    <div className="bk-alert bk-alert--warning sh-backup-banner" role="status" data-testid="backup-banner">
      {warning.reasons.map((r) => (
        <p key={r} className="bk-alert__text">
          {r === 'copy_missing'
            ? t('backupBanner.copy_missing', { dir: warning.copy_dir ?? '' })
            : t(`backupBanner.${r}`, { last })}{' '}
          {r !== 'copy_missing' && t(`backupBanner.${who}`)}
        </p>
      ))}
    </div>
  );
}
