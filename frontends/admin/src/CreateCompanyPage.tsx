import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
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
  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (missingRequired(form)) {
      alert.error('Please fill all required fields.');
      return;
    }
    setBusy(true);
    try {
      const reply = await api.post<CreateReply>('/admin/createCompany', form);
      if (!reply?.success) {
        alert.error('Failed to create company.');
        return;
      }
      alert.success('Company created successfully!');
      // The temporary password is shown once; the manager must change it at first login.
      setCreated({ companyId: reply.companyId, email: form.mEmail, password: reply.managerPassword });
      setForm(EMPTY);
    } catch {
      alert.error('Failed to create company.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>Add Company</h1>
      </div>
      {created && (
        <div className="ad-created" data-testid="company-created">
          <strong>Company created.</strong>
          {created.password ? (
            <>
              {' '}
              Temporary password for <code>{created.email}</code>: <code data-testid="manager-password">{created.password}</code>. It is shown only once; the manager
              must change it at first login.
            </>
          ) : (
            <> Set the manager's password from the company page.</>
          )}
          {created.companyId !== undefined && (
            <>
              {' '}
              <Link to={`/admin/company/${created.companyId}`}>Open company</Link>
            </>
          )}
        </div>
      )}
      <Card title="Company and manager">
        <form onSubmit={submit} noValidate>
          <FormGrid>
            <Field label="Company Name" name="cName" required value={form.cName} onChange={set('cName')} />
            <Field label="Address" name="cAdd" required value={form.cAdd} onChange={set('cAdd')} />
            <Field label="Mobile" name="cMob" inputMode="tel" required value={form.cMob} onChange={set('cMob')} />
            <Field label="Manager Name" name="mName" required value={form.mName} onChange={set('mName')} />
            <Field label="Manager Email" name="mEmail" type="email" required value={form.mEmail} onChange={set('mEmail')} />
          </FormGrid>
          <FormActions>
            <Button type="submit" busy={busy}>
              Create Company
            </Button>
          </FormActions>
        </form>
      </Card>
    </>
  );
}
