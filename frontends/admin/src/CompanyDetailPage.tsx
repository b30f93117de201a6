import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Card, Field, FormActions, Modal, Spinner, api, useAlert, useConfirm, usePageHeader } from '@bahi/ui-kit';
import { Trans, translateServerMessage, useTranslation } from '@bahi/i18n';
import type { AdminCompanyDetailsReply, AdminUserRow } from '@bahi/contracts';

type CompanyUser = AdminUserRow;
type Details = AdminCompanyDetailsReply;

function PasswordModal({ user, onClose }: { user: CompanyUser | null; onClose(): void }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const { t } = useTranslation('admin');
  useEffect(() => setPassword(''), [user]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!user?.email || !password) {
      alert.error(t('required'));
      return;
    }
    setBusy(true);
    try {
      const reply = await api.post<{ success?: boolean; message?: string }>('/admin/user/update-password', { newPassword: password, email: user.email });
      if (reply && reply.success === false) alert.error(reply.message ? translateServerMessage(reply.message) : t('supportError'));
      else {
        alert.success(t('password.updated'));
        onClose();
      }
    } catch (err) {
      alert.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={!!user} title={t('password.title')} onClose={onClose}>
      <form onSubmit={submit} className="ad-stack">
        <p className="bk-muted" style={{ margin: 0 }}>
          <Trans t={t} i18nKey="password.for" values={{ name: user?.name ?? '', email: user?.email ?? '' }} components={{ name: <strong /> }} />
        </p>
        <Field label={t('password.label')} name="newPassword" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <FormActions>
          <Button variant="ghost" onClick={onClose}>
            {t('password.cancel')}
          </Button>
          <Button type="submit" busy={busy}>
            {t('password.submit')}
          </Button>
        </FormActions>
      </form>
    </Modal>
  );
}

export function CompanyDetailPage() {
  const { companyId } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const confirm = useConfirm();
  const { t } = useTranslation('admin');
  const [details, setDetails] = useState<Details | null>(null);
  const [editing, setEditing] = useState<CompanyUser | null>(null);
  usePageHeader(details?.company ? <span className="sh-page-title">{details.company.name}</span> : null, [details?.company?.name]);

  const load = useCallback(async () => {
    try {
      setDetails(await api.get<Details>(`/admin/company/details/${companyId}`));
    } catch (err) {
      setDetails({ company: null, users: [], error: (err as Error).message });
    }
  }, [companyId]);
  useEffect(() => void load(), [load]);

  if (!details) return <Spinner label={t('detail.loading')} />;
  const { company, users, error } = details;
  if (!company) {
    return (
      <Card title={t('detail.card')}>
        <p>{error || t('detail.notFound')}</p>
      </Card>
    );
  }

  const deleteCompany = async () => {
    const ok = await confirm({
      title: t('detail.delete'),
      message: t('detail.deleteConfirm', { name: company.name }),
      confirmLabel: t('detail.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      const reply = await api.delete<{ success: boolean; message?: string }>(`/admin/company/delete/${company.id}`);
      if (!reply?.success) throw new Error(reply?.message);
      alert.success(t('detail.deleted'));
      navigate('/admin', { replace: true });
    } catch {
      alert.error(t('detail.deleteFailed'));
    }
  };

  const unlock = async (u: CompanyUser) => {
    try {
      await api.post('/admin/user/unlock', {}, { query: { email: u.email } });
      alert.success(t('detail.unlocked'));
      await load();
    } catch {
      alert.error(t('detail.unlockFailed'));
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>{company.name}</h1>
        <Button variant="danger" onClick={deleteCompany}>
          {t('detail.delete')}
        </Button>
      </div>
      <Card title={t('detail.details')}>
        <dl className="ad-details">
          <dt>{t('detail.id')}</dt>
          <dd>{company.id}</dd>
          <dt>{t('detail.address')}</dt>
          <dd>{[company.add1, company.add2].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{t('detail.mobile')}</dt>
          <dd>{[company.mob1, company.mob2].filter(Boolean).join(', ') || '—'}</dd>
          <dt>{t('detail.email')}</dt>
          <dd>{company.email || '—'}</dd>
        </dl>
      </Card>
      <Card title={t('detail.users')}>
        <table className="bk-table" data-testid="company-users">
          <thead>
            <tr>
              <th>{t('detail.id')}</th>
              <th>{t('detail.name')}</th>
              <th>{t('detail.email')}</th>
              <th>{t('detail.position')}</th>
              <th>{t('detail.status')}</th>
              <th style={{ textAlign: 'right' }}>{t('detail.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {users.length === 0 && (
              <tr>
                <td colSpan={6} className="bk-table__empty">
                  {t('detail.noUsers')}
                </td>
              </tr>
            )}
            {users.map((u) => (
              <tr key={u.id} data-email={u.email}>
                <td>{u.id}</td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td style={{ textTransform: 'capitalize' }}>{t(`detail.positions.${u.position}`, { defaultValue: u.position })}</td>
                <td>{u.is_locked ? <span className="bk-badge bk-badge--danger">{t('detail.locked')}</span> : <span className="bk-badge bk-badge--success">{t('detail.active')}</span>}</td>
                <td style={{ textAlign: 'right' }}>
                  <Button variant="ghost" onClick={() => setEditing(u)}>
                    {t('detail.updatePassword')}
                  </Button>
                  <Button variant="ghost" onClick={() => unlock(u)} disabled={!u.is_locked}>
                    {t('detail.unlock')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <PasswordModal user={editing} onClose={() => setEditing(null)} />
    </>
  );
}
