import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from '@bahi/i18n';

export interface ModalProps {
  open: boolean;
  title?: ReactNode;
  onClose(): void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
}

export function Modal({ open, title, onClose, children, footer, width = 480 }: ModalProps) {
  const titleId = useId();
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, onClose]);
  if (!open) return null;
  return createPortal(
    <div className="bk-modal__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="bk-modal" role="dialog" aria-modal="true" aria-labelledby={title ? titleId : undefined} style={{ maxWidth: width }}>
        {title && (
          <div className="bk-modal__head">
            <h2 id={titleId}>{title}</h2>
            <CloseButton onClose={onClose} />
          </div>
        )}
        <div className="bk-modal__body">{children}</div>
        {footer && <div className="bk-modal__foot">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}

// Its own component so a closed Modal (always mounted by ConfirmProvider) never waits for messages.
function CloseButton({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('ui');
  return (
    <button type="button" className="bk-modal__close" aria-label={t('common.close')} onClick={onClose}>
      ×
    </button>
  );
}
