import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Button, Card, Field, FormActions, Modal, Spinner, api, useAlert, useConfirm, usePageHeader } from '@bahi/ui-kit';
import type { AdminCompanyDetailsReply, AdminUserRow } from '@bahi/contracts';

type CompanyUser = AdminUserRow;
type Details = AdminCompanyDetailsReply;

function PasswordModal({ user, onClose }: { user: CompanyUser | null; onClose(): void }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  useEffect(() => setPassword(''), [user]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!user?.email || !password) {
      alert.error('Please fill all required fields.');
      return;
    }
    setBusy(true);
    try {
      const reply = await api.post<{ success?: boolean; message?: string }>('/admin/user/update-password', { newPassword: password, email: user.email });
      if (reply && reply.success === false) alert.error(reply.message || 'Unable to process the request please contact support.');
      else {
        alert.success('Password updated successfully!');
        onClose();
      }
    } catch (err) {
      alert.error((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={!!user} title="Update Password" onClose={onClose}>
      <form onSubmit={submit} className="ad-stack">
        <p className="bk-muted" style={{ margin: 0 }}>
          New password for <strong>{user?.name}</strong> ({user?.email})
        </p>
        <Field label="New Password" name="newPassword" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
        <FormActions>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={busy}>
            Update Password
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

  if (!details) return <Spinner label="Loading company…" />;
  const { company, users, error } = details;
  if (!company) {
    return (
      <Card title="Company">
        <p>{error || 'Company not found.'}</p>
      </Card>
    );
  }

  const deleteCompany = async () => {
    const ok = await confirm({
      title: 'Delete Company',
      message: `Do you want to delete ${company.name}? Its users will no longer be able to sign in.`,
      confirmLabel: 'Delete Company',
      danger: true,
    });
    if (!ok) return;
    try {
      const reply = await api.delete<{ success: boolean; message?: string }>(`/admin/company/delete/${company.id}`);
      if (!reply?.success) throw new Error(reply?.message);
      alert.success('Company deleted successfully!');
      navigate('/admin', { replace: true });
    } catch {
      alert.error('Failed to delete company.');
    }
  };

  const unlock = async (u: CompanyUser) => {
    try {
      await api.post('/admin/user/unlock', {}, { query: { email: u.email } });
      alert.success('User unlocked successfully!');
      await load();
    } catch {
      alert.error('Error unlocking user');
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>{company.name}</h1>
        <Button variant="danger" onClick={deleteCompany}>
          Delete Company
        </Button>
      </div>
      <Card title="Company details">
        <dl className="ad-details">
          <dt>ID</dt>
          <dd>{company.id}</dd>
          <dt>Address</dt>
          <dd>{[company.add1, company.add2].filter(Boolean).join(', ') || '—'}</dd>
          <dt>Mobile</dt>
          <dd>{[company.mob1, company.mob2].filter(Boolean).join(', ') || '—'}</dd>
          <dt>Email</dt>
          <dd>{company.email || '—'}</dd>
        </dl>
      </Card>
      <Card title="Users">
        <table className="bk-table" data-testid="company-users">
          <thead>
            <tr>
              <th>ID</th>
              <th>Name</th>
              <th>Email</th>
              <th>Position</th>
              <th>Status</th>
              <th style={{ textAlign: 'right' }}>Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.length === 0 && (
              <tr>
                <td colSpan={6} className="bk-table__empty">
                  No users.
                </td>
              </tr>
            )}
            {users.map((u) => (
              <tr key={u.id} data-email={u.email}>
                <td>{u.id}</td>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td style={{ textTransform: 'capitalize' }}>{u.position}</td>
                <td>{u.is_locked ? <span className="bk-badge bk-badge--danger">Locked</span> : <span className="bk-badge bk-badge--success">Active</span>}</td>
                <td style={{ textAlign: 'right' }}>
                  <Button variant="ghost" onClick={() => setEditing(u)}>
                    Update Password
                  </Button>
                  <Button variant="ghost" onClick={() => unlock(u)} disabled={!u.is_locked}>
                    Unlock User
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
