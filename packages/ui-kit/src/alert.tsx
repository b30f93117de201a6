import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { translateServerMessage, useLanguage, useTranslation } from '@bahi/i18n';

export type AlertVariant = 'success' | 'error' | 'info' | 'warning';
export const ALERT_MS = 5000;

interface AlertState {
  id: number;
  message: string;
  variant: AlertVariant;
}

export interface AlertApi {
  show(message: string, variant?: AlertVariant): void;
  success(message: string): void;
  error(message: string): void;
  hide(): void;
}

const AlertContext = createContext<AlertApi | null>(null);

/** The alert banner (spec: shown, hidden automatically after 5 seconds, dismissible). */
export function AlertProvider({ children }: { children: ReactNode }) {
  const [alert, setAlert] = useState<AlertState | null>(null);
  const seq = useRef(0);

  const hide = useCallback(() => setAlert(null), []);
  const show = useCallback((message: string, variant: AlertVariant = 'info') => {
    seq.current += 1;
    setAlert({ id: seq.current, message, variant });
  }, []);

  useEffect(() => {
    if (!alert) return;
    const t = setTimeout(() => setAlert((a) => (a?.id === alert.id ? null : a)), ALERT_MS);
    return () => clearTimeout(t);
  }, [alert]);

  const api = useMemo<AlertApi>(
    () => ({ show, hide, success: (m) => show(m, 'success'), error: (m) => show(m, 'error') }),
    [show, hide],
  );

  return (
    <AlertContext.Provider value={api}>
      {alert && <AlertBanner alert={alert} onHide={hide} />}
      {children}
    </AlertContext.Provider>
  );
}

function AlertBanner({ alert, onHide }: { alert: AlertState; onHide(): void }) {
  // Never suspends: the banner sits above every screen (and its text comes from the caller).
  // In Hindi it also waits for the services' messages, and re-renders (translated) when they are in.
  const { t, ready } = useTranslation(useLanguage() === 'hi' ? ['ui', 'server'] : ['ui'], { useSuspense: false });
  return (
    <div className={`bk-alert bk-alert--${alert.variant}`} role={alert.variant === 'error' ? 'alert' : 'status'} data-testid="alert">
      {/* A service's English sentence shows in Hindi when Hindi is on (the server catalogue); other text as given. */}
      <span className="bk-alert__text">{translateServerMessage(alert.message)}</span>
      <button type="button" className="bk-alert__close" aria-label={ready ? t('common.dismiss') : undefined} onClick={onHide}>
        ×
      </button>
    </div>
  );
}

export function useAlert(): AlertApi {
  const ctx = useContext(AlertContext);
  if (!ctx) throw new Error('useAlert needs an <AlertProvider> (the shell provides one)');
  return ctx;
}
