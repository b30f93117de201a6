import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '@bahi/i18n';
import { ApiError, Button, PartyField, api, errorMessage, useAlert } from '@bahi/ui-kit';
import { customerFormError, fieldLabel, gstModeStart, newCustomerFromSearch, NEW_CUSTOMER, stateFromGstin, type Customer, type CustomerFormValues } from './customer';
import './clients.css';

interface SaveReply {
  done?: boolean;
  success?: boolean;
  id?: number;
  customer?: Customer;
  err?: string;
}

export interface CustomerFormProps {
  /** An existing customer: the form starts in read mode and the mobile number is locked. */
  customer?: Customer | null;
  /** Where a new customer is posted: the cart uses /clients/addClient, the customer list its form action. */
  createPath?: string;
  onSaved?(customer: Customer): void;
  /** Called by Cancel on a new customer (an existing one just restores its saved data). */
  onCancel?(): void;
  testId?: string;
  /** The text typed in the customer search: a new customer's name, or its mobile when 10 digits. */
  typed?: string;
}

const values = (c: Customer): CustomerFormValues => ({
  mobile_no: c.mobile_no,
  name: c.name,
  address_line_1: c.address_line_1,
  address_line_2: c.address_line_2 ?? '',
  city_or_district: c.city_or_district,
  state: c.state,
  country: c.country,
  postal_code: c.postal_code,
  gstin: c.gstin ?? '',
});

const FIELDS: (keyof CustomerFormValues)[] = ['name', 'address_line_1', 'address_line_2', 'city_or_district', 'state', 'country', 'postal_code', 'gstin'];
const OPTIONAL = new Set<keyof CustomerFormValues>(['address_line_2', 'gstin']);

/** The customer form of spec 000: read -> Edit -> Save, Cancel restores; defaults for a new customer. */
export function CustomerForm({ customer, createPath = '/clients/addClient', onSaved, onCancel, testId = 'customer-form', typed = '' }: CustomerFormProps) {
  const existing = !!customer;
  const [saved, setSaved] = useState<CustomerFormValues>(customer ? values(customer) : { ...NEW_CUSTOMER, ...newCustomerFromSearch(typed) });
  const [form, setForm] = useState<CustomerFormValues>(saved);
  const [editing, setEditing] = useState(!existing);
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const { t } = useTranslation('sales');

  // A GSTIN typed in full fills the state (its first two digits are the GST state code).
  const setValue = (k: keyof CustomerFormValues) => (value: string) =>
    setForm((f) => {
      const state = k === 'gstin' ? stateFromGstin(value) : null;
      return { ...f, [k]: value, ...(state ? { state } : {}) };
    });

  // In GST mode a new customer starts in the company's state, not the spec's Maharashtra (the state
  // decides CGST/SGST versus IGST), and with an empty zip: the server wants a 6-digit PIN there, which
  // the spec's 1000001 is not. Simple mode keeps the spec's defaults.
  useEffect(() => {
    if (existing) return;
    let live = true;
    api
      .get<{ tax_mode?: string; state_code?: string | null }>('/getCompanyDetails')
      .then((c) => {
        if (!live || !c || (c.tax_mode ?? 'simple') === 'simple' || !c.state_code) return;
        const start = (f: CustomerFormValues) => gstModeStart(f, c.state_code!);
        setForm(start);
        setSaved(start);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [existing]);

  const cancel = () => {
    setForm(saved);
    if (existing) setEditing(false);
    else onCancel?.();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    const problem = customerFormError(form);
    if (problem) {
      alert.error(problem);
      return;
    }
    setBusy(true);
    try {
      const reply = existing
        ? await api.put<SaveReply>('/clients/addClient', { ...form, id: customer!.client_id })
        : await api.post<SaveReply>(createPath, { ...form, id: 0 });
      if (!(reply?.done || reply?.success) || !reply.customer) {
        alert.error(reply?.err || t('customerForm.saveFailed'));
        return;
      }
      const next = values(reply.customer);
      setSaved(next);
      setForm(next);
      if (existing) {
        setEditing(false);
        alert.success(t('customerForm.updated'));
      }
      onSaved?.(reply.customer);
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as SaveReply | undefined) : undefined;
      alert.error(body?.err || errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const locked = !editing;
  return (
    <form className="cl-form" onSubmit={submit} data-testid={testId} data-mode={editing ? 'edit' : 'read'} noValidate>
      <div className="cl-form__grid">
        <div className="bk-field cl-form__mobile">
          <label htmlFor={`${testId}-mobile`}>
            {t('customerForm.mobile')}<span className="bk-field__req" aria-hidden="true"> *</span>
          </label>
          <div className="cl-prefixed">
            <span className="cl-prefixed__prefix">91</span>
            <input
              id={`${testId}-mobile`}
              name="mobile_no"
              inputMode="numeric"
              maxLength={10}
              required
              value={form.mobile_no}
              onChange={(e) => setValue('mobile_no')(e.target.value)}
              disabled={locked || existing}
              title={existing ? t('customerForm.mobileLocked') : undefined}
            />
          </div>
        </div>
        {FIELDS.map((k) => (
          <PartyField
            key={k}
            id={`${testId}-${k}`}
            field={k}
            label={fieldLabel(k)}
            required={!OPTIONAL.has(k)}
            className={k === 'name' ? 'cl-form__wide' : undefined}
            value={form[k]}
            onChange={setValue(k)}
            disabled={locked}
          />
        ))}
      </div>
      <div className="bk-form-actions cl-form__actions">
        {existing && (
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={editing}>
            {t('common.edit')}
          </Button>
        )}
        <Button variant="ghost" onClick={cancel} disabled={!editing || busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={busy} disabled={!editing}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
