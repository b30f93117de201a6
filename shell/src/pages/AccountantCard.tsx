import { useEffect, useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, FormActions, api, useAlert } from '@bahi/ui-kit';
import type { AccountantLedgersReply } from '@bahi/contracts';

type Ledger = AccountantLedgersReply['ledgers'][number];
/** Sales and purchase ledgers per GST rate: many, so folded away under their own heading. */
const perRate = (l: Ledger) => /^(sales|purchase)_/.test(l.key);

/**
 * Setting > Accountant (issue 31): the names of Bahi's ledgers in the accountant's Tally company.
 * Tally matches ledgers by exact name, so the Tally file uses these; an empty box goes back to
 * Bahi's name. Only what changed is sent; the server refuses a clash or a bad name with a sentence.
 */
export function AccountantCard() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const [saved, setSaved] = useState<Ledger[] | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const take = (r: AccountantLedgersReply) => {
    setSaved(r.ledgers);
    setNames(Object.fromEntries(r.ledgers.map((l) => [l.key, l.name])));
  };
  useEffect(() => {
    api.get<AccountantLedgersReply>('/accountant/ledgers').then(take, () => setSaved([]));
  }, []);
  if (!saved || !saved.length) return null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changed = Object.fromEntries(saved.filter((l) => (names[l.key] ?? '') !== l.name).map((l) => [l.key, names[l.key] ?? '']));
    setBusy(true);
    try {
      take(await api.put<AccountantLedgersReply>('/accountant/ledgers', { ledgers: changed }));
      alert.success(t('accountant.saved'));
    } catch (err) {
      alert.error(err instanceof ApiError ? translateServerMessage(err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  const row = (l: Ledger) => (
    <tr key={l.key}>
      <td>{l.default_name}</td>
      <td>{l.group}</td>
      <td>
        <input
          className="bk-input"
          name={`tally-${l.key}`}
          aria-label={t('accountant.nameOf', { ledger: l.default_name })}
          maxLength={100}
          value={names[l.key] ?? ''}
          placeholder={l.default_name}
          onChange={(e) => setNames({ ...names, [l.key]: e.target.value })}
        />
      </td>
    </tr>
  );
  const head = (
    <thead>
      <tr>
        <th scope="col">{t('accountant.bahiLedger')}</th>
        <th scope="col">{t('accountant.group')}</th>
        <th scope="col">{t('accountant.tallyName')}</th>
      </tr>
    </thead>
  );
  return (
    <Card title={t('accountant.title')}>
      <form onSubmit={(e) => void submit(e)} data-testid="accountant-ledgers">
        <p className="sh-gst__note">{t('accountant.note')}</p>
        <div className="bk-table-wrap">
          <table className="bk-table">
            {head}
            <tbody>{saved.filter((l) => !perRate(l)).map(row)}</tbody>
          </table>
        </div>
        <details>
          <summary>{t('accountant.perRate')}</summary>
          <div className="bk-table-wrap">
            <table className="bk-table">
              {head}
              <tbody>{saved.filter(perRate).map(row)}</tbody>
            </table>
          </div>
        </details>
        <FormActions>
          <Button type="submit" busy={busy} data-testid="accountant-save">
            {t('accountant.save')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
