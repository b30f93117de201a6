import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '@bahi/i18n';
import { Modal } from './Modal';
import { Button } from './controls';

export interface ConfirmOptions {
  message: ReactNode;
  title?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  danger?: boolean;
}

type ConfirmFn = (opts: ConfirmOptions | string) => Promise<boolean>;
const ConfirmContext = createContext<ConfirmFn | null>(null);

/** A styled confirmation dialog instead of window.confirm; resolves true on confirm. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui', { useSuspense: false });
  const [opts, setOpts] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback<ConfirmFn>((o) => {
    resolver.current?.(false);
    setOpts(typeof o === 'string' ? { message: o } : o);
    return new Promise<boolean>((resolve) => (resolver.current = resolve));
  }, []);

  const close = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setOpts(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Modal
        open={!!opts}
        title={opts?.title ?? t('common.pleaseConfirm')}
        onClose={() => close(false)}
        width={420}
        footer={
          <>
            <Button variant="ghost" onClick={() => close(false)}>
              {opts?.cancelLabel ?? t('common.cancel')}
            </Button>
            <Button variant={opts?.danger ? 'danger' : 'primary'} onClick={() => close(true)} autoFocus>
              {opts?.confirmLabel ?? t('common.ok')}
            </Button>
          </>
        }
      >
        <p className="bk-confirm__message">{opts?.message}</p>
      </Modal>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): ConfirmFn {
  const ctx = useContext(ConfirmContext);
  if (!ctx) throw new Error('useConfirm needs a <ConfirmProvider> (the shell provides one)');
  return ctx;
}
