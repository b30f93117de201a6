import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api, Button, Card, errorMessage, Field, FormActions, formatINR, isManager, todayISO, useAlert, useUser } from '@bahi/ui-kit';
import type { OpeningBalancesReply } from '@bahi/contracts';

/** /payments/expenses/opening (managers): the cash and bank the books start from. */
export function OpeningPage() {
  const { t } = useTranslation('payments');
  const alert = useAlert();
  const manager = isManager(useUser());
  const [current, setCurrent] = useState<OpeningBalancesReply | null>(null);
  const [form, setForm] = useState({ date: todayISO(), cash: '', bank: '' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!manager) return;
    api.get<OpeningBalancesReply>('/books/opening').then(
      (r) => {
        setCurrent(r);
        if (r.set) setForm({ date: r.date, cash: r.cash, bank: r.bank });
      },
      () => alert.error(t('connectFailed')),
    );
  }, [manager, alert, t]);

  if (!manager) {
    return (
      <div className="bk-card bk-card__body">
        <h2>{t('opening.title')}</h2>
        <p className="bk-muted">{t('opening.managerOnly')}</p>
      </div>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api.put<OpeningBalancesReply>('/books/opening', { date: form.date, cash: form.cash.trim(), bank: form.bank.trim() }, { authRedirect: false });
      setCurrent(r);
      alert.success(t('opening.saved'));
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="pm-page" data-testid="opening-page">
      <div className="bk-page-title">
        <h1>{t('opening.title')}</h1>
        <Link to=".." relative="path" className="bk-linkbtn">
          {t('expenses.title')}
        </Link>
      </div>
      <Card title={t('opening.card')}>
        <form onSubmit={submit} noValidate data-testid="opening-form">
          <p className="bk-muted">{t('opening.hint')}</p>
          <div className="pm-grid">
            <Field label={t('opening.date')} name="opening_date" type="date" value={form.date} onChange={(e) => setForm({ ...form, date: e.target.value })} />
            <span />
            <Field label={t('opening.cash')} name="opening_cash" inputMode="decimal" placeholder="0.00" value={form.cash} onChange={(e) => setForm({ ...form, cash: e.target.value })} />
            <Field label={t('opening.bank')} name="opening_bank" inputMode="decimal" placeholder="0.00" value={form.bank} onChange={(e) => setForm({ ...form, bank: e.target.value })} hint={t('opening.bankHint')} />
          </div>
          {current?.set ? (
            <p className="pm-total" data-testid="opening-current">
              {t('opening.current', { date: current.date, cash: formatINR(current.cash), bank: formatINR(current.bank), name: current.by?.name ?? '' })}
            </p>
          ) : (
            <p className="bk-muted">{t('opening.notSet')}</p>
          )}
          <FormActions>
            <Button type="submit" busy={busy}>
              {t('opening.save')}
            </Button>
          </FormActions>
        </form>
      </Card>
    </div>
  );
}
