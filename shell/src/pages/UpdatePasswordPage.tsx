import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, Card, Field, FormActions, api, errorMessage, useAlert } from '@bahi/ui-kit';

export function UpdatePasswordPage() {
  const [form, setForm] = useState({ current_password: '', new_password: '', re_type_new_password: '' });
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const navigate = useNavigate();
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.new_password !== form.re_type_new_password) {
      alert.error('Password Do Not Match');
      return;
    }
    setBusy(true);
    try {
      // A wrong current password is an answer here, not a dead session.
      const reply = await api.post<{ success: boolean; message: string }>('/manage/profile/edit/updatePassword', form, { authRedirect: false });
      if (!reply?.success) {
        alert.error(reply?.message || 'Unable to process the request please contact support.');
        return;
      }
      alert.success('Password Updated Successfully');
      navigate('/logout', { replace: true });
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="sh-narrow">
      <Card title="Update Password">
        <form onSubmit={submit}>
          <div className="sh-stack">
            <Field label="Current Password" name="current_password" type="password" autoComplete="current-password" required value={form.current_password} onChange={set('current_password')} />
            <Field label="New Password" name="new_password" type="password" autoComplete="new-password" required value={form.new_password} onChange={set('new_password')} />
            <Field
              label="Re-type New Password"
              name="re_type_new_password"
              type="password"
              autoComplete="new-password"
              required
              value={form.re_type_new_password}
              onChange={set('re_type_new_password')}
            />
          </div>
          <FormActions>
            <Button type="submit" busy={busy}>
              Update Password
            </Button>
          </FormActions>
        </form>
      </Card>
    </div>
  );
}
