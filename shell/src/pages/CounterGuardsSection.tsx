import { useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, Field, FormActions, SelectField, api, useAlert } from '@bahi/ui-kit';

/** The counter's guards (issue 28) as the company form holds them. */
export interface CounterGuards {
  staff_max_discount_percent: string;
  walkin_credit: 'confirm' | 'refuse' | 'allow';
  /** Staff may record expenses (issue 29). */
  staff_expenses: boolean;
  /** A cash sale needs the cashier's open register (issue 29). */
  require_register: boolean;
}

export const counterGuardsOf = (company: object): CounterGuards => {
  const c = company as { staff_max_discount_percent?: number; walkin_credit?: CounterGuards['walkin_credit']; staff_expenses?: boolean; require_register?: boolean };
  return { staff_max_discount_percent: String(c.staff_max_discount_percent ?? 100), walkin_credit: c.walkin_credit ?? 'confirm', staff_expenses: c.staff_expenses === true, require_register: c.require_register === true };
};

/** What setCompanyDetails gets: the percent as the number it was typed as (the server refuses anything but 0-100). */
export const counterGuardsBody = (g: CounterGuards) => ({
  staff_max_discount_percent: /^\d+(\.\d{1,2})?$/.test(g.staff_max_discount_percent.trim()) ? Number(g.staff_max_discount_percent) : g.staff_max_discount_percent,
  walkin_credit: g.walkin_credit,
  staff_expenses: g.staff_expenses,
  require_register: g.require_register,
});

/** Staff discount limit and credit to the walk-in customer, inside the company form. */
export function CounterGuardsSection({ value, onChange }: { value: CounterGuards; onChange(v: CounterGuards): void }) {
  const { t } = useTranslation('shell');
  return (
    <fieldset className="sh-gst" data-testid="counter-guards">
      <legend>{t('guards.title')}</legend>
      <Field
        label={t('guards.staffMax')}
        name="staff_max_discount_percent"
        inputMode="decimal"
        value={value.staff_max_discount_percent}
        onChange={(e) => onChange({ ...value, staff_max_discount_percent: e.target.value })}
        hint={t('guards.staffMaxHint')}
      />
      <SelectField
        label={t('guards.walkin')}
        name="walkin_credit"
        value={value.walkin_credit}
        onChange={(e) => onChange({ ...value, walkin_credit: e.target.value as CounterGuards['walkin_credit'] })}
        hint={t(`guards.walkinHint.${value.walkin_credit}`)}
      >
        <option value="confirm">{t('guards.walkinConfirm')}</option>
        <option value="refuse">{t('guards.walkinRefuse')}</option>
        <option value="allow">{t('guards.walkinAllow')}</option>
      </SelectField>
      <SelectField
        label={t('guards.expenses')}
        name="staff_expenses"
        value={value.staff_expenses ? 'staff' : 'managers'}
        onChange={(e) => onChange({ ...value, staff_expenses: e.target.value === 'staff' })}
        hint={t('guards.expensesHint')}
      >
        <option value="managers">{t('guards.expensesManagers')}</option>
        <option value="staff">{t('guards.expensesStaff')}</option>
      </SelectField>
      <SelectField
        label={t('guards.register')}
        name="require_register"
        value={value.require_register ? 'required' : 'optional'}
        onChange={(e) => onChange({ ...value, require_register: e.target.value === 'required' })}
        hint={t('guards.registerHint')}
      >
        <option value="optional">{t('guards.registerOptional')}</option>
        <option value="required">{t('guards.registerRequired')}</option>
      </SelectField>
    </fieldset>
  );
}

/** A manager's own approval PIN (PUT /profile/pin), asked at the counter for a discount above the staff limit. */
export function ApprovalPinCard() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const [form, setForm] = useState({ current_password: '', pin: '' });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      // A wrong password is an answer here, not a dead session.
      await api.put('/profile/pin', form, { authRedirect: false });
      alert.success(t('guards.pinSaved'));
      setForm({ current_password: '', pin: '' });
    } catch (err) {
      alert.error(err instanceof ApiError && err.message ? translateServerMessage(err.message) : t('setting.updateFailed'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('guards.pinTitle')}>
      <form onSubmit={submit} className="sh-stack" data-testid="approval-pin-form">
        <p>{t('guards.pinHint')}</p>
        <Field label={t('password.current')} name="pin_current_password" type="password" autoComplete="current-password" value={form.current_password} onChange={(e) => setForm({ ...form, current_password: e.target.value })} />
        <Field label={t('guards.pin')} name="approval_pin" type="password" inputMode="numeric" autoComplete="off" maxLength={6} value={form.pin} onChange={(e) => setForm({ ...form, pin: e.target.value.replace(/\D/g, '') })} />
        <FormActions>
          <Button type="submit" busy={busy}>
            {t('guards.pinSave')}
          </Button>
        </FormActions>
      </form>
    </Card>
  );
}
