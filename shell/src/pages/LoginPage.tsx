import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Field, api, setSession, useAlert, type User } from '@bahi/ui-kit';
import { setUser } from '../userStore';
import { AuthCard } from './AuthCard';

interface LoginReply {
  success: boolean;
  token?: string;
  forceChange?: boolean;
  user?: User;
  msg?: string;
}

export function LoginPage() {
  const { t } = useTranslation('shell');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const alert = useAlert();
  const navigate = useNavigate();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await api.post<LoginReply>('/loginReact', { email, password }, { authRedirect: false });
      if (!reply?.success || !reply.token) {
        alert.error(reply?.msg ? translateServerMessage(reply.msg) : t('login.failed'));
        return;
      }
      setSession(reply.token);
      setUser(reply.user ?? null);
      // A temporary password (the admin's default one too) opens nothing but its change.
      if (reply.forceChange) navigate('/updatePassword', { replace: true });
      else if (reply.user?.position === 'admin') navigate('/admin', { replace: true });
      // A manager's day starts on the dashboard (the evening's figures); staff start at the cart.
      else if (reply.user?.position === 'manager') navigate('/reports', { replace: true });
      else navigate('/', { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.status > 0) {
        const body = err.body as { msg?: string } | undefined;
        alert.error(body?.msg ? translateServerMessage(body.msg) : t('login.failed'));
      } else alert.error(t('login.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={t('login.title')} subtitle={t('brand.tagline')}>
      <form onSubmit={submit} className="sh-auth__form">
        <Field label={t('login.email')} name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        <Field label={t('login.password')} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <Button type="submit" busy={busy} className="sh-auth__submit">
          {t('login.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
