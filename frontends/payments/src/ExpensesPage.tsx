import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api, ApiError, Button, Card, errorMessage, Field, formatINR, isManager, Modal, PagedTable, todayISO, useAlert, useUser, type Column } from '@bahi/ui-kit';
import type { Expense, ExpenseCategoriesReply, ExpenseHistoryReply, ExpenseListReply } from '@bahi/contracts';
import { ExpenseForm } from './ExpenseForm';
import { CategoriesCard } from './CategoriesCard';

type Row = Expense & Record<string, unknown>;

/** The modes of an expense as words ("Cash ₹340.75 + UPI ₹2,000.00"); amounts are the server's strings. */
function useModes() {
  const { t } = useTranslation('payments');
  return (e: Pick<Expense, 'payments'>) => e.payments.map((p) => `${t(`expenses.modes.${p.mode}`)} ${formatINR(p.amount)}${p.ref ? ` (${p.ref})` : ''}`).join(' + ');
}

/**
 * /payments/expenses: the expenses of a date range with their total (the server's), add, edit and
 * delete with a reason, each one's history, and the categories (managers). Staff reach it while
 * the company lets them (Setting); otherwise the server's sentence is shown.
 */
export function ExpensesPage() {
  const { t } = useTranslation('payments');
  const alert = useAlert();
  const manager = isManager(useUser());
  const modes = useModes();
  const [from, setFrom] = useState(`${todayISO().slice(0, 8)}01`);
  const [to, setTo] = useState(todayISO());
  const [withDeleted, setWithDeleted] = useState(false);
  const [total, setTotal] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const [cats, setCats] = useState<ExpenseCategoriesReply | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [editing, setEditing] = useState<Expense | null>(null);
  const [deleting, setDeleting] = useState<Expense | null>(null);
  const [reason, setReason] = useState('');
  const [history, setHistory] = useState<ExpenseHistoryReply | null>(null);

  const loadCats = useCallback(() => {
    api.get<ExpenseCategoriesReply>('/expenses/categories', { authRedirect: false }).then(setCats, (err) => {
      if (err instanceof ApiError && err.status === 403) setRefused(errorMessage(err));
      else alert.error(t('connectFailed'));
    });
  }, [alert, t]);
  useEffect(loadCats, [loadCats]);

  const changed = () => {
    setReload((n) => n + 1);
    loadCats();
  };

  const load = async (pageNo: number, signal: AbortSignal) => {
    try {
      const r = await api.get<ExpenseListReply>('/expenses', { query: { from, to, pageNo, deleted: withDeleted ? 1 : undefined }, signal, authRedirect: false });
      setTotal(r.total);
      return { rows: r.list as Row[], noOfPages: r.noOfPages };
    } catch (err) {
      // The server's sentence (a range whose From is after its To, ...), not a generic failure.
      if (!signal.aborted) {
        setTotal(null);
        alert.error(errorMessage(err));
      }
      throw err;
    }
  };

  const showHistory = async (e: Expense) => {
    try {
      setHistory(await api.get<ExpenseHistoryReply>(`/expenses/${e.id}/history`, { authRedirect: false }));
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  const remove = async (ev: FormEvent) => {
    ev.preventDefault();
    if (!deleting) return;
    try {
      await api.delete(`/expenses/${deleting.id}`, { query: { reason }, authRedirect: false });
      alert.success(t('expenses.deleted', { id: deleting.id }));
      setDeleting(null);
      setReason('');
      changed();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  if (refused) {
    return (
      <div className="bk-card bk-card__body" data-testid="expenses-refused">
        <h2>{t('expenses.title')}</h2>
        <p className="bk-muted">{refused}</p>
      </div>
    );
  }

  const columns: Column<Row>[] = [
    { key: 'id', header: t('expenses.no') },
    { key: 'date', header: t('expenses.date') },
    { key: 'category', header: t('expenses.category'), render: (e) => (e.deleted ? `${e.category} (${t('expenses.deletedMark')})` : e.category) },
    { key: 'amount', header: t('expenses.amount'), align: 'right', render: (e) => formatINR(e.amount) },
    { key: 'payments', header: t('expenses.paidBy'), render: (e) => <span className="pm-wrap">{modes(e)}</span> },
    { key: 'note', header: t('expenses.note'), render: (e) => <span className="pm-wrap">{e.note}</span> },
    { key: 'by', header: t('expenses.by'), render: (e) => e.by.name },
    {
      key: 'actions',
      header: t('expenses.actions'),
      render: (e) => (
        <span className="pm-row-actions">
          <Button type="button" variant="ghost" onClick={() => void showHistory(e)}>
            {t('expenses.history')}
          </Button>
          {manager && !e.deleted ? (
            <>
              <Button type="button" variant="secondary" onClick={() => setEditing(e)}>
                {t('expenses.edit')}
              </Button>
              <Button type="button" variant="danger" onClick={() => setDeleting(e)}>
                {t('expenses.delete')}
              </Button>
            </>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <div className="pm-wide" data-testid="expenses-page">
      <div className="bk-page-title">
        <h1>{t('expenses.title')}</h1>
        {manager ? (
          <Link to="opening" className="bk-linkbtn">
            {t('opening.title')}
          </Link>
        ) : null}
      </div>
      <Card title={t('expenses.addTitle')}>{cats ? <ExpenseForm categories={cats.categories} onSaved={changed} /> : null}</Card>
      <div className="pm-range" data-testid="expense-range">
        <Field label={t('expenses.from')} name="from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <Field label={t('expenses.to')} name="to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <label className="pm-check">
          <input type="checkbox" checked={withDeleted} onChange={(e) => setWithDeleted(e.target.checked)} /> {t('expenses.showDeleted')}
        </label>
        <p className="pm-total" data-testid="expense-total">
          {t('expenses.total')} <strong>{total === null ? '…' : formatINR(total)}</strong>
        </p>
      </div>
      <div className="pm-expenses">
        <PagedTable<Row> load={load} columns={columns} deps={[from, to, withDeleted, reload]} pageBase={0} testId="expense-table" emptyText={t('expenses.none')} loadErrorMessage={null} />
      </div>
      {manager && cats ? <CategoriesCard value={cats} onSaved={setCats} /> : null}

      <Modal open={!!editing} title={editing ? t('expenses.editTitle', { id: editing.id }) : ''} onClose={() => setEditing(null)} width={640}>
        {editing && cats ? (
          <ExpenseForm
            categories={cats.categories}
            editing={editing}
            onSaved={() => {
              setEditing(null);
              changed();
            }}
          />
        ) : null}
      </Modal>

      <Modal open={!!deleting} title={deleting ? t('expenses.deleteTitle', { id: deleting.id }) : ''} onClose={() => setDeleting(null)}>
        <form onSubmit={remove} data-testid="expense-delete-form">
          <p>{deleting ? t('expenses.deleteText', { category: deleting.category, amount: formatINR(deleting.amount), date: deleting.date }) : ''}</p>
          <Field label={t('expenses.reason')} name="delete_reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} hint={t('expenses.reasonHint')} autoFocus />
          <div className="pm-actions">
            <Button type="submit" variant="danger">
              {t('expenses.delete')}
            </Button>
          </div>
        </form>
      </Modal>

      <Modal open={!!history} title={history ? t('expenses.historyTitle', { id: history.id }) : ''} onClose={() => setHistory(null)} width={960}>
        {history ? (
          <div className="bk-table-wrap pm-expenses">
            <table className="bk-table" data-testid="expense-history">
              <thead>
                <tr>
                  <th>{t('expenses.when')}</th>
                  <th>{t('expenses.by')}</th>
                  <th>{t('expenses.change')}</th>
                  <th>{t('expenses.reason')}</th>
                  <th>{t('expenses.after')}</th>
                </tr>
              </thead>
              <tbody>
                {history.list.map((r) => (
                  <tr key={r.version}>
                    <td>{new Date(r.at).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata', dateStyle: 'short', timeStyle: 'short' })}</td>
                    <td>{r.by.name}</td>
                    <td>{t(`expenses.action.${r.action}`)}</td>
                    <td>
                      <span className="pm-wrap">{r.reason}</span>
                    </td>
                    <td>
                      <span className="pm-wrap">{[r.expense.date, r.expense.category, formatINR(r.expense.amount), modes(r.expense), r.expense.note].filter(Boolean).join(' · ')}</span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Modal>
    </div>
  );
}
