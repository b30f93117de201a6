import { useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { AlertProvider, ConfirmProvider, getToken, msUntilExpiry, setAuthFailureHandler } from '@bahi/ui-kit';
import { setUser } from './userStore';

/** Session watcher: a 401/403 reply sends the user to login; expiry fires the logout. */
function SessionRules() {
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => {
    setAuthFailureHandler(() => {
      setUser(null);
      if (window.location.pathname !== '/loginApp') navigate('/loginApp', { replace: true });
    });
  }, [navigate]);

  // Re-armed on every navigation, so a login or logout is picked up.
  useEffect(() => {
    if (!getToken() || ['/loginApp', '/logout'].includes(location.pathname)) return;
    const timer = setTimeout(() => navigate('/logout', { replace: true }), msUntilExpiry());
    return () => clearTimeout(timer);
  }, [location.pathname, navigate]);

  return null;
}

export function Root() {
  return (
    <AlertProvider>
      <ConfirmProvider>
        <SessionRules />
        <Outlet />
      </ConfirmProvider>
    </AlertProvider>
  );
}
