import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@bahi/i18n';
import type { PayMode, RegisterCloseReply, RegisterSession, RegisterSessionsReply } from '@bahi/contracts';
import { PAY_MODES } from '@bahi/contracts';
import { api, Button, Card, errorMessage, Field, FormActions, formatINR, openDocument, TextAreaField, useAlert, usePageHeader } from '@bahi/ui-kit';
import '../i18n';
import './register.css';

type Current = RegisterSession | { open: false };

/** A time the server gave (ISO) as the counter reads it. */
const clock = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'short', timeStyle: 'short' }) : '');

/** The server's figures of a session; the browser only shows them. */
function Figures({ s, testId }: { s: RegisterSession; testId: string }) {
  const { t } = useTranslation('sales');
  const rows: [string, number | string][] = [
    [t('register.opening'), formatINR(s.opening_cash)],
    [t('register.cashIn'), formatINR(s.cash_in)],
    [t('register.cashOut'), formatINR(s.cash_out)],
    [t('register.expected'), formatINR(s.expected_cash)],
    [t('register.salesCount'), s.sales_count],
  ];
  return (
    <div className="rg-figures" data-testid={testId}>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <table className="rg-modes">
        <caption>{t('register.byMode')}</caption>
        <tbody>
          {PAY_MODES.map((m: PayMode) => (
            <tr key={m}>
              <th scope="row">{t(`register.mode.${m}`)}</th>
              <td data-testid={`${testId}-${m}`}>{formatINR(s.totals[m])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Z report on A4 or the 80 mm roll. */
function PrintZ({ id }: { id: number }) {
  const { t } = useTranslation('sales');
  const alert = useAlert();
  const print = (format?: string) => openDocument(`/documents/register/${id}${format ? `?format=${format}` : ''}`, { print: true }).catch(() => alert.error(t('register.printFailed')));
  return (
    <span className="rg-print">
      <Button variant="secondary" onClick={() => print()} data-testid={`print-z-${id}`}>
        {t('register.printZ')}
      </Button>
      <Button variant="secondary" onClick={() => print('thermal-80')} data-testid={`print-z-roll-${id}`}>
        {t('register.printRoll')}
      </Button>
    </span>
  );
}

/**
 * /register: the cashier's own register session (issue 29). Open with the cash in the drawer,
 * watch the running totals the ledger computes, close with the cash counted and print the Z report.
 */
export default function RegisterArea() {
  const { t } = useTranslation('sales');
  const alert = useAlert();
  usePageHeader(<span>{t('register.title')}</span>, [t]);
  const [current, setCurrent] = useState<Current | null>(null);
  const [sessions, setSessions] = useState<RegisterSession[]>([]);
  const [opening, setOpening] = useState('');
  const [counted, setCounted] = useState('');
  const [note, setNote] = useState('');
  const [closed, setClosed] = useState<RegisterCloseReply | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const [cur, list] = await Promise.all([api.get<Current>('/register/current'), api.get<RegisterSessionsReply>('/register/sessions')]);
      setCurrent(cur);
      setSessions(list.sessions);
    } catch (err) {
      alert.error(errorMessage(err));
    }
  }, [alert]);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const open = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await api.post('/register/open', { opening_cash: opening.trim() }, { authRedirect: false });
      setClosed(null);
      setOpening('');
      alert.success(t('register.opened'));
      await load();
    });
  };
  const close = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await api.post<RegisterCloseReply>('/register/close', { counted_cash: counted.trim(), note }, { authRedirect: false });
      setClosed(r);
      setCounted('');
      setNote('');
      alert.success(t('register.closedOk'));
      await load();
    });
  };

  if (!current) return <p className="bk-muted">{t('register.loading')}</p>;
  return (
    <div className="rg-page" data-testid="register-page">
      {current.open ? (
        <Card
          title={t('register.openTitle', { id: current.id, at: clock(current.opened_at) })}
          actions={
            <Button variant="secondary" onClick={() => void load()} data-testid="register-refresh">
              {t('register.refresh')}
            </Button>
          }
        >
          <Figures s={current} testId="register-running" />
          <form onSubmit={close} noValidate data-testid="register-close-form" className="rg-form">
            <Field label={t('register.counted')} name="counted_cash" inputMode="decimal" placeholder="0.00" value={counted} onChange={(e) => setCounted(e.target.value)} hint={t('register.countedHint')} />
            <TextAreaField label={t('register.note')} name="register_note" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
            <FormActions>
              <Button type="submit" busy={busy} data-testid="register-close">
                {t('register.close')}
              </Button>
            </FormActions>
          </form>
        </Card>
      ) : (
        <Card title={t('register.closedTitle')}>
          <form onSubmit={open} noValidate data-testid="register-open-form" className="rg-form">
            <p className="bk-muted">{t('register.openHint')}</p>
            <Field label={t('register.openingCash')} name="opening_cash" inputMode="decimal" placeholder="0.00" autoFocus value={opening} onChange={(e) => setOpening(e.target.value)} />
            <FormActions>
              <Button type="submit" busy={busy} data-testid="register-open">
                {t('register.open')}
              </Button>
            </FormActions>
          </form>
        </Card>
      )}
      {closed ? (
        <Card title={t('register.result', { id: closed.id })}>
          <dl className="rg-result" data-testid="register-result">
            <div>
              <dt>{t('register.expected')}</dt>
              <dd>{formatINR(closed.expected_cash)}</dd>
            </div>
            <div>
              <dt>{t('register.counted')}</dt>
              <dd>{formatINR(closed.counted_cash)}</dd>
            </div>
            <div>
              <dt>{t('register.difference')}</dt>
              <dd data-testid="register-difference">{closed.difference === 0 ? t('register.even') : closed.difference < 0 ? t('register.short', { amount: formatINR(-closed.difference) }) : t('register.over', { amount: formatINR(closed.difference) })}</dd>
            </div>
          </dl>
          <PrintZ id={closed.id} />
        </Card>
      ) : null}
      <Card title={t('register.today')}>
        {sessions.length ? (
          <table className="rg-sessions" data-testid="register-sessions">
            <thead>
              <tr>
                <th>{t('register.session')}</th>
                <th>{t('register.cashier')}</th>
                <th>{t('register.openedAt')}</th>
                <th>{t('register.closedAt')}</th>
                <th className="num">{t('register.expected')}</th>
                <th className="num">{t('register.counted')}</th>
                <th className="num">{t('register.difference')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id}>
                  <td>{s.id}</td>
                  <td>{s.user_name}</td>
                  <td>{clock(s.opened_at)}</td>
                  <td>{s.open ? t('register.stillOpen') : clock(s.closed_at)}</td>
                  <td className="num">{formatINR(s.expected_cash)}</td>
                  <td className="num">{s.counted_cash === null ? '' : formatINR(s.counted_cash)}</td>
                  <td className="num">{s.difference === null ? '' : formatINR(s.difference)}</td>
                  <td>
                    <PrintZ id={s.id} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="bk-muted">{t('register.noSessions')}</p>
        )}
      </Card>
    </div>
  );
}
