import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Trans, useTranslation } from '@bahi/i18n';
import { Button, Card, Field, FormActions, FormGrid, api, useAlert } from '@bahi/ui-kit';
import { missingRequired } from './validation';

const EMPTY = { cName: '', cAdd: '', cMob: '', mName: '', mEmail: '' };

interface CreateReply {
  success: boolean;
  message: string;
  companyId?: number;
  managerPassword?: string;
}

export function CreateCompanyPage() {
  const [form, setForm] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<{ companyId?: number; email: string; password?: string } | null>(null);
  const alert = useAlert();
  const { t } = useTranslation('admin');
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (missingRequired(form)) {
      alert.error(t('required'));
      return;
    }
    setBusy(true);
    try {
      const reply = await api.post<CreateReply>('/admin/createCompany', form);
      if (!reply?.success) {
        alert.error(t('create.failed'));
        return;
      }
      alert.success(t('create.success'));
      // The temporary password is shown once; the manager must change it at first login.
      setCreated({ companyId: reply.companyId, email: form.mEmail, password: reply.managerPassword });
      setForm(EMPTY);
    } catch {
      alert.error(t('create.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('create.title')}</h1>
      </div>
      {created && (
        <div className="ad-created" data-testid="company-created">
          <strong>{t('create.created')}</strong>
          {created.password ? (
            <>
              {' '}
              <Trans
                t={t}
                i18nKey="create.tempPassword"
                values={{ email: created.email, password: created.password }}
                components={{ email: <code />, password: <code data-testid="manager-password" /> }}
              />
            </>
          ) : (
            <> {t('create.noPassword')}</>
          )}
          {created.companyId !== undefined && (
            <>
              {' '}
              <Link to={`/admin/company/${created.companyId}`}>{t('create.open')}</Link>
            </>
          )}
        </div>
      )}
      <Card title={t('create.card')}>
        <form onSubmit={submit} noValidate>
          <FormGrid>
            <Field label={t('create.companyName')} name="cName" required value={form.cName} onChange={set('cName')} />
            <Field label={t('create.address')} name="cAdd" required value={form.cAdd} onChange={set('cAdd')} />
            <Field label={t('create.mobile')} name="cMob" inputMode="tel" required value={form.cMob} onChange={set('cMob')} />
            <Field label={t('create.managerName')} name="mName" required value={form.mName} onChange={set('mName')} />
            <Field label={t('create.managerEmail')} name="mEmail" type="email" required value={form.mEmail} onChange={set('mEmail')} />
          </FormGrid>
          <FormActions>
            <Button type="submit" busy={busy}>
              {t('create.submit')}
            </Button>
          </FormActions>
        </form>
      </Card>
    </>
  );
}
