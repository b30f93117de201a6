import { useState, type FormEvent } from 'react';
import { useTranslation } from '@bahi/i18n';
import { api, Button, CASH_ONLY, errorMessage, Field, FormActions, PaymentModes, paymentsBody, SelectField, todayISO, useAlert, type TenderRow } from '@bahi/ui-kit';
import type { Expense } from '@bahi/contracts';

/** The tenders of a stored expense as the PaymentModes control holds them (one tender takes the whole amount). */
export function tendersOf(e: Expense): TenderRow[] {
  if (e.payments.length <= 1) return e.payments.length ? [{ mode: e.payments[0]!.mode, amount: '', ref: e.payments[0]!.ref ?? '' }] : CASH_ONLY;
  return e.payments.map((p) => ({ mode: p.mode, amount: p.amount, ref: p.ref ?? '' }));
}

/**
 * Add (POST /expenses) or edit (PUT /expenses/{id}, with the reason it asks for). The server checks
 * everything (the tenders add up to the amount, the category, the date) and its sentence is shown.
 */
export function ExpenseForm({ categories, editing, onSaved }: { categories: string[]; editing?: Expense; onSaved(e: Expense): void }) {
  const { t } = useTranslation('payments');
  const alert = useAlert();
  const [date, setDate] = useState(editing?.date ?? todayISO());
  const [category, setCategory] = useState(editing?.category ?? categories[0] ?? '');
  const [amount, setAmount] = useState(editing?.amount ?? '');
  const [tenders, setTenders] = useState<TenderRow[]>(editing ? tendersOf(editing) : CASH_ONLY);
  const [note, setNote] = useState(editing?.note ?? '');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setBusy(true);
    const body = { date, category, amount: amount.trim(), payments: paymentsBody(tenders, amount), note, ...(editing ? { reason } : {}) };
    try {
      const saved = editing ? await api.put<Expense>(`/expenses/${editing.id}`, body, { authRedirect: false }) : await api.post<Expense>('/expenses', body, { authRedirect: false });
      alert.success(editing ? t('expenses.edited', { id: saved.id }) : t('expenses.added', { id: saved.id }));
      if (!editing) {
        setAmount('');
        setNote('');
        setTenders(CASH_ONLY);
      }
      onSaved(saved);
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate data-testid={editing ? 'expense-edit-form' : 'expense-form'}>
      <div className="pm-grid">
        <Field label={t('expenses.date')} name="expense_date" type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        <SelectField label={t('expenses.category')} name="expense_category" value={category} onChange={(e) => setCategory(e.target.value)}>
          {categories.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <Field label={t('expenses.amount')} name="expense_amount" inputMode="decimal" placeholder="0.00" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <Field label={t('expenses.note')} name="expense_note" maxLength={200} value={note} onChange={(e) => setNote(e.target.value)} />
      </div>
      <PaymentModes rows={tenders} onChange={setTenders} testId={editing ? 'expense-edit-modes' : 'expense-modes'} />
      {editing ? <Field label={t('expenses.reason')} name="expense_reason" maxLength={200} value={reason} onChange={(e) => setReason(e.target.value)} hint={t('expenses.reasonHint')} /> : null}
      <FormActions>
        <Button type="submit" busy={busy}>
          {editing ? t('expenses.saveEdit') : t('expenses.add')}
        </Button>
      </FormActions>
    </form>
  );
}
