import { useEffect, useId, useRef, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
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

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const FIELDS = 'input:not([disabled]):not([type="hidden"]):not([readonly]), select:not([disabled]), textarea:not([disabled])';

/** Open modals, innermost last: only the innermost keeps the focus (a PIN dialog over the Sell panel). */
const openModals: HTMLElement[] = [];

const visible = (el: HTMLElement) => el.getClientRects().length > 0;
export function focusablesIn(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(visible);
}

/**
 * Where the focus goes in a modal: the field refused last (aria-invalid), else the first field,
 * else the first focusable control (the close button comes last, so a dialog of buttons starts on its first).
 */
export function modalFocusTarget(box: HTMLElement): HTMLElement | null {
  const pick = (sel: string) => [...box.querySelectorAll<HTMLElement>(sel)].find(visible) ?? null;
  return pick('[aria-invalid="true"]:not([disabled])') ?? pick(FIELDS) ?? focusablesIn(box).find((el) => !el.classList.contains('bk-modal__close')) ?? pick('.bk-modal__close');
}

/**
 * A dialog over the page. While open it keeps the keyboard inside itself: the focus starts on its
 * first field, Tab and Shift+Tab cycle within it, a focus that escapes (a control disabled while
 * the server answers, a click on the backdrop) comes back to the field to fix, and no key pressed
 * in it reaches the page behind (the cart's F9, Enter on a cart line).
 */
export function Modal({ open, title, onClose, children, footer, width = 480 }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const el = box.current;
    if (!open || !el) return;
    const before = document.activeElement as HTMLElement | null;
    openModals.push(el);
    const innermost = () => openModals[openModals.length - 1] === el;
    // A field with autoFocus already has it; otherwise the first field.
    if (!el.contains(document.activeElement)) modalFocusTarget(el)?.focus();
    const pull = () => {
      if (innermost() && el.isConnected && !el.contains(document.activeElement)) modalFocusTarget(el)?.focus();
    };
    const onFocusIn = (e: FocusEvent) => {
      if (innermost() && !el.contains(e.target as Node)) pull();
    };
    // Focus lost to nothing (the focused button got disabled or removed) fires no focusin: checked after the blur.
    const onFocusOut = () => setTimeout(pull, 0);
    document.addEventListener('focusin', onFocusIn);
    el.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      el.removeEventListener('focusout', onFocusOut);
      openModals.splice(openModals.indexOf(el), 1);
      // Back to where the keyboard was (still on the page, and inside the modal now on top, if any).
      const top = openModals[openModals.length - 1];
      if (before?.isConnected && (!top || top.contains(before))) before.focus();
      else if (top) modalFocusTarget(top)?.focus();
    };
  }, [open]);

  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    // Nothing typed in a modal acts on the page behind it (React bubbles through portals; native listeners on window too).
    e.stopPropagation();
    const el = box.current;
    if (!el || openModals[openModals.length - 1] !== el) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      closeRef.current();
    } else if (e.key === 'Tab') {
      const all = focusablesIn(el);
      if (!all.length) return e.preventDefault();
      const i = all.indexOf(document.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? all[all.length - 1] : all[i - 1]) : i === -1 || i === all.length - 1 ? all[0] : all[i + 1];
      e.preventDefault();
      next!.focus();
    }
  };

  if (!open) return null;
  return createPortal(
    <div className="bk-modal__backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()} onKeyDown={onKeyDown} onKeyUp={(e) => e.stopPropagation()}>
      <div ref={box} className="bk-modal" role="dialog" aria-modal="true" aria-labelledby={title ? titleId : undefined} style={{ maxWidth: width }}>
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
