import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '@bahi/ui-kit';
import { REFRESH_MS } from './model';
import type { DashboardReply } from './types';

export interface DashboardState {
  data: DashboardReply | null;
  /** The last load's failure; the previous figures (if any) stay on screen. */
  error: string | null;
  loading: boolean;
  updatedAt: Date | null;
}

/**
 * The dashboard's figures: loaded on mount, again every REFRESH_MS while the tab is visible (and
 * at once when it becomes visible again), and on demand. A newer load cancels an older one.
 */
export function useDashboard(): DashboardState & { refresh: () => void } {
  const [state, setState] = useState<DashboardState>({ data: null, error: null, loading: true, updatedAt: null });
  const inFlight = useRef<AbortController | null>(null);

  const load = useCallback(async () => {
    inFlight.current?.abort();
    const ctrl = new AbortController();
    inFlight.current = ctrl;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await api.get<DashboardReply>('/reports/dashboard', { signal: ctrl.signal });
      if (!ctrl.signal.aborted) setState({ data, error: null, loading: false, updatedAt: new Date() });
    } catch (err) {
      if (!ctrl.signal.aborted) setState((s) => ({ ...s, error: errorMessage(err), loading: false }));
    }
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const start = () => {
      stop();
      timer = setInterval(() => void load(), REFRESH_MS);
    };
    const onVisibility = () => {
      if (document.hidden) stop();
      else {
        void load();
        start();
      }
    };
    void load();
    if (!document.hidden) start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisibility);
      inFlight.current?.abort();
    };
  }, [load]);

  return { ...state, refresh: () => void load() };
}
