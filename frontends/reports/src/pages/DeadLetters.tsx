// Events the reports could not take (the service's dead letters of this company): a short notice
// above each report when there are any, the latest ones listed on demand. Nothing when there are none.
import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api } from '@bahi/ui-kit';

interface DeadLetterRow {
  id: string;
  subject: string;
  eventId: string | null;
  error: string;
  at: string;
}

export function DeadLettersNotice() {
  const { t } = useTranslation('reports');
  const [data, setData] = useState<{ count: number; rows: DeadLetterRow[] } | null>(null);
  useEffect(() => {
    let live = true;
    // A notice, not the report: when it cannot be read the report still shows.
    api.get<{ count: number; rows: DeadLetterRow[] }>('/reports/dead-letters').then(
      (d) => live && setData(d),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (!data?.count) return null;
  return (
    <details className="rp-dead" data-testid="dead-letters">
      <summary>{t('pages.deadLetters.summary', { count: data.count })}</summary>
      <p className="bk-muted">{t('pages.deadLetters.help')}</p>
      <ul>
        {data.rows.map((r) => (
          <li key={r.id} data-testid="dead-letter">
            <span>{new Date(r.at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' })}</span> <code>{r.subject}</code> {r.eventId ? <code>{r.eventId}</code> : null} <span>{r.error}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
