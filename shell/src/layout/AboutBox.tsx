import { useEffect, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { getToken, Modal } from '@bahi/ui-kit';
import shellPackage from '../../package.json';

interface Row {
  part: string;
  version: string;
}

/** A process as `npm start` supervises it (`processes` of /api/health, devstack only). */
interface ProcessRow {
  part: string;
  status: 'running' | 'restarting' | 'stopped';
  restarts: number;
  lastExit?: { reason: string; at: string };
}

/** Each part deploys on its own, so support needs every running version, not one build number. */
async function collectVersions(): Promise<{ services: Row[]; remotes: Row[]; processes: ProcessRow[] }> {
  // The gateway gives versions and details only to a signed-in user.
  const token = getToken();
  const health = await fetch('/api/health', { cache: 'no-store', headers: token ? { Authorization: `Bearer ${token}` } : {} })
    .then((r) => r.json())
    .catch(() => null);
  const services: Row[] = [];
  if (health?.gateway?.version) services.push({ part: 'gateway', version: String(health.gateway.version) });
  for (const [name, s] of Object.entries<{ status?: string; detail?: { app?: { version?: string } } }>(
    health?.services ?? {},
  )) {
    services.push({
      part: name,
      version: s.detail?.app?.version ?? (s.status === 'up' ? 'unknown' : (s.status ?? 'unknown')),
    });
  }
  const list: Record<string, string> = await fetch('/remotes.json', { cache: 'no-store' })
    .then((r) => r.json())
    .catch(() => ({}));
  const remotes = await Promise.all(
    Object.entries(list).map(async ([name, url]) => {
      // The federation manifest carries the remote's package version (buildInfo.buildVersion).
      const version = await fetch(new URL(url, window.location.origin).href, { cache: 'no-store' })
        .then((r) => r.json())
        .then((m) => String(m?.metaData?.buildInfo?.buildVersion ?? 'unknown'))
        .catch(() => 'not reachable');
      return { part: name, version };
    }),
  );
  // Under `npm start`: what the supervisor restarted, so support sees a crashing part at once.
  const processes = Object.entries<Omit<ProcessRow, 'part'>>(health?.processes ?? {}).map(([part, p]) => ({ part, ...p }));
  return { services, remotes, processes };
}

export function AboutBox({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const [data, setData] = useState<{ services: Row[]; remotes: Row[]; processes: ProcessRow[] } | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    setData(null);
    void collectVersions().then((d) => live && setData(d));
    return () => {
      live = false;
    };
  }, [open]);
  const table = (caption: string, rows: Row[]) => (
    <table className="sh-about__table">
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.part}>
            <th scope="row">{r.part}</th>
            <td>{r.version}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <Modal open={open} title={t('about.title')} onClose={onClose}>
      {table(t('about.shell'), [{ part: 'shell', version: shellPackage.version }])}
      {data ? (
        <>
          {table(t('about.modules'), data.remotes)}
          {table(t('about.services'), data.services)}
          {data.processes.length > 0 &&
            table(
              t('about.processes'),
              data.processes.map((p) => {
                const values = { status: t(`about.status.${p.status}`), restarts: p.restarts };
                return {
                  part: p.part,
                  version: p.lastExit
                    ? t('about.processExited', { ...values, reason: p.lastExit.reason, at: new Date(p.lastExit.at).toLocaleString() })
                    : t('about.process', values),
                };
              }),
            )}
        </>
      ) : (
        <p>{t('about.loading')}</p>
      )}
    </Modal>
  );
}
