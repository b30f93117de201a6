import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { Button, Field, api, errorMessage, useAlert } from '@bahi/ui-kit';
import { mustChangePassword } from '../guards';
import { AuthCard } from './AuthCard';

/**
 * /updatePassword, outside the shell: every user's own password, the platform admin's included.
 * With a temporary password it is the only page there is until the password is changed.
 */
export function UpdatePasswordPage() {
  const { t } = useTranslation('shell');
  const [form, setForm] = useState({ current_password: '', new_password: '', re_type_new_password: '' });
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const navigate = useNavigate();
  const forced = mustChangePassword();
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.new_password !== form.re_type_new_password) {
      alert.error(t('password.noMatch'));
      return;
    }
    setBusy(true);
    try {
      // A wrong current password is an answer here, not a dead session.
      const reply = await api.post<{ success: boolean; message: string }>('/manage/profile/edit/updatePassword', form, { authRedirect: false });
      if (!reply?.success) {
        alert.error(reply?.message ? translateServerMessage(reply.message) : t('password.support'));
        return;
      }
      alert.success(t('password.updated'));
      navigate('/logout', { replace: true });
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('password.title')}
      subtitle={forced ? t('password.forced') : t('password.after')}
    >
      <form onSubmit={submit} className="sh-auth__form">
        <Field label={t('password.current')} name="current_password" type="password" autoComplete="current-password" required value={form.current_password} onChange={set('current_password')} autoFocus />
        <Field label={t('password.new')} name="new_password" type="password" autoComplete="new-password" required value={form.new_password} onChange={set('new_password')} />
        <Field
          label={t('password.retype')}
          name="re_type_new_password"
          type="password"
          autoComplete="new-password"
          required
          value={form.re_type_new_password}
          onChange={set('re_type_new_password')}
        />
        <Button type="submit" busy={busy} className="sh-auth__submit">
          {t('password.submit')}
        </Button>
      </form>
      <p className="sh-auth__aside">
        {forced ? <Link to="/logout">{t('password.logout')}</Link> : <Link to="/">{t('password.cancel')}</Link>}
      </p>
    </AuthCard>
  );
}
