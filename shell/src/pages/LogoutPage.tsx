import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Spinner, api, clearSession } from '@bahi/ui-kit';
import { setUser } from '../userStore';

/** /logout: posts the logout (revoking the token), then clears the session and goes to login. */
export function LogoutPage() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    api
      .post('/logout', {}, { authRedirect: false })
      .catch(() => undefined)
      .finally(() => {
        clearSession();
        setUser(null);
        navigate('/loginApp', { replace: true });
      });
  }, [navigate]);
  return <Spinner label={t('logout.signingOut')} />;
}
