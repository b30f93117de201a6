import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from '@bahi/i18n';
import { Button } from './controls';

interface Props {
  /** What failed, for the message ("admin", "sales"…). */
  name: string;
  onRetry?(): void;
  children: ReactNode;
}

/** Shown in a remote's own area when it cannot load or crashes; the rest of the app keeps working. */
export function RemoteUnavailable({ name, onRetry, detail }: { name: string; onRetry?(): void; detail?: string }) {
  // Never suspends: shown when loading failed, perhaps the messages too.
  const { t } = useTranslation('ui', { useSuspense: false });
  return (
    <div className="bk-remote-fallback" role="alert" data-testid="remote-fallback" data-remote={name}>
      <div className="bk-remote-fallback__icon" aria-hidden="true">!</div>
      <h2>{t('remote.title')}</h2>
      <p>
        {t('remote.before')} <strong>{name}</strong> {t('remote.after')}
      </p>
      {detail && <p className="bk-remote-fallback__detail">{detail}</p>}
      {onRetry && <Button onClick={onRetry}>{t('common.retry')}</Button>}
    </div>
  );
}

/** Error boundary around one remote's area, with a retry that remounts (and reloads) it. */
export class RemoteBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`remote "${this.props.name}" failed`, error, info.componentStack);
  }

  private retry = () => {
    this.setState({ error: null });
    this.props.onRetry?.();
  };

  override render() {
    if (this.state.error) return <RemoteUnavailable name={this.props.name} onRetry={this.retry} detail={this.state.error.message} />;
    return this.props.children;
  }
}
