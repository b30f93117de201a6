import { useCallback, useState } from 'react';
import type { CreateShareReply, ListSharesReply, ShareKind, ShareLang, ShareLinkRow } from '@bahi/contracts';
import { useLanguage, useTranslation } from '@bahi/i18n';
import { api, errorMessage } from './api';
import { useAlert } from './alert';
import { Button } from './controls';
import { Modal } from './Modal';
import './share.css';

/** DD-MM-YYYY HH:MM in the browser's time (the shop's). */
function when(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}-${p(d.getMonth() + 1)}-${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * Whether a share link points at this PC only (localhost, 127.x, ::1, 0.0.0.0): a customer's
 * phone cannot open it, so the dialog says to set the shop's public address.
 */
export function isLocalAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1' || host === '0.0.0.0';
}

/** Opens a URL in a new tab; the tab is opened before any await so popup blockers let it through. */
export function openTab(): { go(url: string): void; close(): void } {
  const tab = typeof window !== 'undefined' ? window.open('', '_blank') : null;
  if (tab) tab.opener = null;
  return {
    go: (url) => {
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    },
    close: () => tab?.close(),
  };
}

export interface ShareButtonProps {
  kind: ShareKind;
  id: number | string;
  /** Button text; default "Share on WhatsApp" (in the screen's language). */
  label?: string;
  /** Full width, as in a column of full-width actions. */
  block?: boolean;
}

/**
 * "Share on WhatsApp" for one document: makes a share link (POST /share), opens WhatsApp with the
 * company's message, then shows the link with Copy, its expiry, the document's other live links
 * and Revoke. The message is in the screen's language unless another one is picked.
 */
export function ShareButton({ kind, id, label, block = false }: ShareButtonProps) {
  const { t } = useTranslation('ui');
  const alert = useAlert();
  const screenLang = useLanguage();
  // null: follow the screen's language (a switch of the screen's language moves it too).
  const [picked, setLang] = useState<ShareLang | null>(null);
  const lang: ShareLang = picked ?? screenLang;
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<CreateShareReply | null>(null);
  const [open, setOpen] = useState(false);
  const [links, setLinks] = useState<ShareLinkRow[]>([]);

  const refresh = useCallback(async () => {
    try {
      setLinks((await api.get<ListSharesReply>('/share', { query: { kind, id } })).links);
    } catch (err) {
      alert.error(errorMessage(err));
    }
  }, [kind, id, alert]);

  const share = async () => {
    const tab = openTab();
    setBusy(true);
    try {
      const reply = await api.post<CreateShareReply>('/share', { kind, id: Number(id), lang });
      tab.go(reply.waUrl);
      setMade(reply);
      setOpen(true);
      await refresh();
    } catch (err) {
      tab.close();
      alert.error(errorMessage(err, t('share.failed')));
    } finally {
      setBusy(false);
    }
  };

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      alert.success(t('share.copied'));
    } catch {
      alert.error(t('share.copyNotAllowed'));
    }
  };

  const revoke = async (token: string) => {
    try {
      await api.post('/share/revoke', { token });
      alert.success(t('share.revoked'));
      if (made?.token === token) setMade(null);
      await refresh();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  return (
    <span className={block ? 'bk-share bk-share--block' : 'bk-share'}>
      <Button variant="secondary" busy={busy} onClick={() => void share()} data-testid={`share-${kind}`}>
        <span className="bk-share__wa" aria-hidden="true" />
        {label ?? t('share.label')}
      </Button>
      <select
        className="bk-share__lang"
        aria-label={t('share.language')}
        value={lang}
        onChange={(e) => setLang(e.target.value as ShareLang)}
        data-testid={`share-lang-${kind}`}
      >
        <option value="en">{t('share.english')}</option>
        <option value="hi">{t('share.hindi')}</option>
      </select>
      <Modal open={open} title={t('share.title')} onClose={() => setOpen(false)} width={560}>
        {made && (
          <div className="bk-share__made" data-testid="share-made">
            <p className="bk-share__hint">{t('share.hint')}</p>
            <div className="bk-share__row">
              <input
                className="bk-share__url"
                readOnly
                value={made.url}
                aria-label={t('share.link')}
                data-testid="share-url"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button variant="secondary" onClick={() => void copy(made.url)}>
                {t('share.copy')}
              </Button>
            </div>
            <div className="bk-share__meta">{t('share.expires', { when: when(made.expiresAt) })}</div>
            {isLocalAddress(made.url) && (
              <p className="bk-share__local" role="alert" data-testid="share-local-warning">
                {t('share.localAddress')}
              </p>
            )}
            <div className="bk-share__message" data-testid="share-message">
              {made.message}
            </div>
            <div className="bk-share__row">
              <a className="bk-btn bk-btn--primary" href={made.waUrl} target="_blank" rel="noreferrer noopener">
                {t('share.openAgain')}
              </a>
              <Button variant="secondary" onClick={() => void copy(made.message)}>
                {t('share.copyMessage')}
              </Button>
            </div>
          </div>
        )}
        <h3 className="bk-share__title">{t('share.liveLinks')}</h3>
        {links.length === 0 ? (
          <p className="bk-share__hint">{t('share.none')}</p>
        ) : (
          <table className="bk-share__links" data-testid="share-links">
            <thead>
              <tr>
                <th>{t('share.made')}</th>
                <th>{t('share.expiresHead')}</th>
                <th>{t('share.views')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.token}>
                  <td title={l.createdBy}>{when(l.createdAt)}</td>
                  <td>{when(l.expiresAt)}</td>
                  <td>{l.views}</td>
                  <td className="r">
                    <Button variant="danger" onClick={() => void revoke(l.token)} data-testid="share-revoke">
                      {t('share.revoke')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Modal>
    </span>
  );
}
