import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { useTranslation } from '@bahi/i18n';
import { RemoteBoundary, RemoteUnavailable, Spinner } from '@bahi/ui-kit';
import { cachedRemoteComponent, loadRemoteComponent } from './remotes';

type State = { status: 'loading' } | { status: 'ready'; Comp: ComponentType } | { status: 'failed'; error: string };

/** Renders one exposed module of a remote in this area, with a spinner, fallback and retry. */
export function RemotePage({ remote, module }: { remote: string; module: string }) {
  const { t } = useTranslation('shell');
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(() => {
    const Comp = cachedRemoteComponent(remote, module);
    return Comp ? { status: 'ready', Comp } : { status: 'loading' };
  });

  useEffect(() => {
    let live = true;
    const Comp = attempt === 0 ? cachedRemoteComponent(remote, module) : undefined;
    if (Comp) {
      setState({ status: 'ready', Comp });
      return;
    }
    setState({ status: 'loading' });
    loadRemoteComponent(remote, module, attempt > 0).then(
      (C) => live && setState({ status: 'ready', Comp: C }),
      (err: Error) => live && setState({ status: 'failed', error: err.message }),
    );
    return () => {
      live = false;
    };
  }, [remote, module, attempt]);

  const retry = () => setAttempt((a) => a + 1);
  if (state.status === 'loading') return <Spinner label={t('layout.loadingArea', { name: remote })} />;
  if (state.status === 'failed') {
    // remotes.ts speaks English; the two reasons a person can act on are shown in the active language.
    const detail =
      state.error === 'Its files could not be reached.' ? t('layout.remoteUnreachable') : state.error === `The ${remote} module is not deployed.` ? t('layout.remoteNotDeployed', { name: remote }) : state.error;
    return <RemoteUnavailable name={remote} onRetry={retry} detail={detail} />;
  }
  const { Comp } = state;
  return (
    <RemoteBoundary key={attempt} name={remote} onRetry={retry}>
      {/* The remote's catalogue loads (active language only) before its first render. */}
      <Suspense fallback={<Spinner />}>
        <Comp />
      </Suspense>
    </RemoteBoundary>
  );
}
