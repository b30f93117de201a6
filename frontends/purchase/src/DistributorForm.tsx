import { useEffect, useState, type FormEvent } from 'react';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, PartyField, api, errorMessage, useAlert } from '@bahi/ui-kit';
import { FIELDS, MSG, NEW_DISTRIBUTOR, distributorFormError, fieldLabel, formValues, isRequired, type Distributor, type DistributorFormValues, type OfficerRow } from './distributor';

interface SaveReply {
  done?: boolean;
  id?: number;
  distributor?: Distributor;
  err?: string;
}

export interface DistributorFormProps {
  /** An existing distributor: the form starts in read mode; without one it is the add form. */
  distributor?: Distributor | null;
  onSaved?(d: Distributor): void;
  /** Cancel of the add form (an existing one just restores its saved data). */
  onCancel?(): void;
  testId?: string;
}

type Mode = 'add' | 'read' | 'edit';

/** The distributor form of spec 001: add, read and edit; Edit moves read to edit, Cancel restores. */
export function DistributorForm({ distributor, onSaved, onCancel, testId = 'distributor-form' }: DistributorFormProps) {
  const existing = !!distributor;
  const [saved, setSaved] = useState<{ form: DistributorFormValues; officers: OfficerRow[] }>({
    form: distributor ? formValues(distributor) : NEW_DISTRIBUTOR,
    officers: distributor?.officers ?? [],
  });
  const [form, setForm] = useState(saved.form);
  const [officers, setOfficers] = useState<OfficerRow[]>(saved.officers);
  const [mode, setMode] = useState<Mode>(existing ? 'read' : 'add');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const { t } = useTranslation('purchase');
  const locked = mode === 'read';

  // A GSTIN's first two digits are its state (GST state code): typed in full, it fills the state.
  const setValue = (k: keyof DistributorFormValues) => (value: string) =>
    setForm((f) => ({ ...f, [k]: value, ...(k === 'gstin' && /^\d{2}[0-9A-Z]{13}$/i.test(value.trim()) ? { state: value.trim().slice(0, 2) } : {}) }));

  // In GST mode a new distributor starts in the company's state, not the spec's West Bengal
  // (the state decides CGST/SGST versus IGST); simple mode keeps the spec's defaults.
  useEffect(() => {
    if (existing) return;
    let live = true;
    api
      .get<{ tax_mode?: string; state_code?: string | null }>('/getCompanyDetails')
      .then((c) => {
        if (!live || !c || (c.tax_mode ?? 'simple') === 'simple' || !c.state_code) return;
        setForm((f) => (f.state === NEW_DISTRIBUTOR.state ? { ...f, state: c.state_code! } : f));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [existing]);
  const setOfficer = (i: number, k: 'name' | 'mobile', value: string) => setOfficers(officers.map((o, j) => (j === i ? { ...o, [k]: value } : o)));

  const cancel = () => {
    setForm(saved.form);
    setOfficers(saved.officers);
    if (existing) setMode('read');
    else onCancel?.();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (locked) return;
    const problem = distributorFormError(form) ?? (officers.some((o) => !o.name.trim()) ? t('form.officerRequired') : null);
    if (problem) return alert.error(problem);
    setBusy(true);
    try {
      const body = { ...form, officers: officers.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim(), mobile: (o.mobile ?? '').trim() })) };
      const reply = existing ? await api.put<SaveReply>('/addDistributor', { ...body, id: distributor!.distributor_id }) : await api.post<SaveReply>('/addDistributor', { ...body, id: 0 });
      if (!reply?.done || !reply.distributor) return alert.error(reply?.err ? translateServerMessage(reply.err) : t('form.supportError'));
      const next = { form: formValues(reply.distributor), officers: reply.distributor.officers ?? [] };
      setSaved(next);
      setForm(next.form);
      setOfficers(next.officers);
      if (existing) {
        setMode('read');
        alert.success(MSG.updated);
      } else {
        alert.success(MSG.created);
      }
      onSaved?.(reply.distributor);
    } catch (err) {
      const body = err instanceof ApiError ? (err.body as SaveReply | undefined) : undefined;
      alert.error(body?.err ? translateServerMessage(body.err) : errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="pu-form" onSubmit={submit} data-testid={testId} data-mode={mode} noValidate>
      <div className="pu-form__grid">
        {FIELDS.map((k) => (
          <PartyField
            key={k}
            id={`${testId}-${k}`}
            field={k}
            label={fieldLabel(k)}
            required={isRequired(k)}
            className={k === 'name' ? 'pu-form__wide' : undefined}
            value={form[k]}
            onChange={setValue(k)}
            disabled={locked}
          />
        ))}
      </div>
      <fieldset className="pu-officers" disabled={locked}>
        <legend>{t('form.officers')}</legend>
        {officers.length === 0 && <p className="bk-muted pu-officers__none">{t('form.noOfficers')}</p>}
        {officers.map((o, i) => (
          <div className="pu-officer" key={o.id ?? `new-${i}`}>
            <input aria-label={t('form.officerName', { n: i + 1 })} placeholder={t('form.namePlaceholder')} value={o.name} onChange={(e) => setOfficer(i, 'name', e.target.value)} />
            <input aria-label={t('form.officerMobile', { n: i + 1 })} placeholder={t('form.mobilePlaceholder')} inputMode="numeric" value={o.mobile ?? ''} onChange={(e) => setOfficer(i, 'mobile', e.target.value)} />
            <Button variant="ghost" onClick={() => setOfficers(officers.filter((_, j) => j !== i))} aria-label={t('form.removeOfficer', { n: i + 1 })}>
              {t('common.remove')}
            </Button>
          </div>
        ))}
        {!locked && (
          <Button variant="secondary" onClick={() => setOfficers([...officers, { name: '', mobile: '' }])}>
            {t('form.addOfficer')}
          </Button>
        )}
      </fieldset>
      <div className="bk-form-actions pu-form__actions">
        {existing && (
          <Button variant="secondary" onClick={() => setMode('edit')} disabled={mode === 'edit'}>
            {t('common.edit')}
          </Button>
        )}
        <Button variant="ghost" onClick={cancel} disabled={locked || busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" busy={busy} disabled={locked}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
