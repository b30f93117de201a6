import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useId } from 'react';
import { useTranslation } from '@bahi/i18n';

export function Spinner({ label, inline = false }: { label?: string; inline?: boolean }) {
  // Never suspends: a spinner is what Suspense shows while catalogues load.
  const { t, ready } = useTranslation('ui', { useSuspense: false });
  return (
    <div className={inline ? 'bk-spinner bk-spinner--inline' : 'bk-spinner'} role="status" aria-live="polite">
      <span className="bk-spinner__wheel" aria-hidden="true" />
      <span className="bk-sr-only">{label ?? (ready ? t('common.loading') : '')}</span>
    </div>
  );
}

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

export function Button({
  variant = 'primary',
  busy = false,
  className = '',
  children,
  type = 'button',
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type={type} className={`bk-btn bk-btn--${variant} ${className}`} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy && <span className="bk-spinner__wheel bk-spinner__wheel--sm" aria-hidden="true" />}
      {children}
    </button>
  );
}

interface FieldShell {
  label: ReactNode;
  hint?: ReactNode;
}

export function Field({ label, hint, className = '', ...input }: InputHTMLAttributes<HTMLInputElement> & FieldShell) {
  const id = useId();
  return (
    <div className={`bk-field ${className}`}>
      <label htmlFor={input.id ?? id}>
        {label}
        {input.required && <span className="bk-field__req" aria-hidden="true"> *</span>}
      </label>
      <input id={input.id ?? id} {...input} />
      {hint && <small className="bk-field__hint">{hint}</small>}
    </div>
  );
}

export function SelectField({ label, hint, className = '', children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & FieldShell) {
  const id = useId();
  return (
    <div className={`bk-field ${className}`}>
      <label htmlFor={select.id ?? id}>{label}</label>
      <select id={select.id ?? id} {...select}>
        {children}
      </select>
      {hint && <small className="bk-field__hint">{hint}</small>}
    </div>
  );
}

export function TextAreaField({ label, hint, className = '', ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldShell) {
  const id = useId();
  return (
    <div className={`bk-field ${className}`}>
      <label htmlFor={area.id ?? id}>{label}</label>
      <textarea id={area.id ?? id} {...area} />
      {hint && <small className="bk-field__hint">{hint}</small>}
    </div>
  );
}

export function Card({ title, actions, children, className = '' }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`bk-card ${className}`}>
      {(title || actions) && (
        <header className="bk-card__head">
          {title && <h2>{title}</h2>}
          {actions && <div className="bk-card__actions">{actions}</div>}
        </header>
      )}
      <div className="bk-card__body">{children}</div>
    </section>
  );
}

/** A grid of fields that collapses to one column on narrow screens. */
export function FormGrid({ children }: { children: ReactNode }) {
  return <div className="bk-form-grid">{children}</div>;
}

export function FormActions({ children }: { children: ReactNode }) {
  return <div className="bk-form-actions">{children}</div>;
}
