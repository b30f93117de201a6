// The state and GSTIN fields of the customer and distributor forms (GST mode).
// The rules are @bahi/gst's; deep imports keep decimal.js (its invoice maths) out of the bundles.
import { GST_STATES, parseState, stateName } from '@bahi/gst/dist/states';
import { validateGstin } from '@bahi/gst/dist/gstin';
import { i18n, translateServerMessage, useTranslation } from '@bahi/i18n';
import './i18n';

/** States a party can be in: current codes only (no retired 25/28, no Centre Jurisdiction). */
export const STATE_CHOICES = GST_STATES.filter((s) => !s.retired && s.code !== '99').map((s) => ({ code: s.code, name: s.name, short: s.short[0] ?? '' }));

/** 'Maharashtra (27)' for a state typed as code, name or short form; null when it is not an Indian state. */
export function describeState(text: string): string | null {
  if (!text.trim()) return null;
  try {
    const code = parseState(text);
    return `${stateName(code)} (${code})`;
  } catch {
    return null;
  }
}

/** A hint for a GSTIN as typed: its state when valid, what is wrong once all 15 characters are there. */
export function describeGstin(text: string): { ok: boolean; text: string } | null {
  const g = text.trim();
  if (!g) return null;
  if (g.length < 15) return { ok: false, text: i18n.t('ui:gst.gstinLength', { length: g.length }) };
  const r = validateGstin(g);
  // The rule's own words are the server's too (it checks the same GSTIN): the server catalogue has them.
  return r.ok
    ? { ok: true, text: i18n.t('ui:gst.registeredIn', { state: stateName(r.stateCode), code: r.stateCode }) }
    : { ok: false, text: translateServerMessage(r.message) };
}

interface FieldProps {
  id: string;
  value: string;
  onChange(value: string): void;
  disabled?: boolean;
}

/**
 * The state as a typeahead of the GST states: type a code, name or short form, or pick a name
 * from the list (arrow keys, Enter). Whatever is typed is sent; the server stores the code. The
 * line below says which state it reads as.
 */
export function StateInput({ id, value, onChange, disabled, required }: FieldProps & { required?: boolean }) {
  const { t } = useTranslation('ui');
  const known = describeState(value);
  return (
    <>
      <input
        id={id}
        name="state"
        list={`${id}-states`}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        required={required}
        aria-describedby={`${id}-hint`}
      />
      <datalist id={`${id}-states`}>
        {STATE_CHOICES.map((s) => (
          <option key={s.code} value={s.name} label={`${s.code} · ${s.short}`} />
        ))}
      </datalist>
      <small id={`${id}-hint`} className="bk-field__hint bk-gst-hint" data-testid={`${id}-hint`}>
        {known ?? (value.trim() ? t('gst.stateUnknown') : t('gst.stateHint'))}
      </small>
    </>
  );
}

/** The optional GSTIN, uppercased as typed; the hint checks it, the server decides (and says why). */
export function GstinInput({ id, value, onChange, disabled }: FieldProps) {
  // The hint below is worded in the active language (describeGstin reads the shared instance).
  const { t } = useTranslation('ui');
  const hint = describeGstin(value);
  return (
    <>
      <input
        id={id}
        name="gstin"
        autoComplete="off"
        spellCheck={false}
        maxLength={15}
        placeholder={t('gst.gstinPlaceholder')}
        value={value}
        onChange={(e) => onChange(e.target.value.toUpperCase().replace(/\s/g, ''))}
        disabled={disabled}
        aria-describedby={`${id}-hint`}
        className="bk-gstin"
      />
      <small id={`${id}-hint`} className={`bk-field__hint bk-gst-hint${hint && !hint.ok && value.trim().length >= 15 ? ' bk-gst-hint--bad' : ''}`} data-testid={`${id}-hint`}>
        {hint?.text ?? t('gst.gstinHint')}
      </small>
    </>
  );
}

/**
 * One field of a party's address form (customer or distributor): its label and the input the
 * field needs (the state typeahead, the GSTIN, or a plain text box).
 */
export function PartyField({
  id,
  field,
  label,
  value,
  onChange,
  disabled,
  required,
  className,
}: FieldProps & { field: string; label: string; required: boolean; className?: string }) {
  return (
    <div className={`bk-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>
        {label}
        {required && <span className="bk-field__req" aria-hidden="true"> *</span>}
      </label>
      {field === 'state' ? (
        <StateInput id={id} value={value} onChange={onChange} disabled={disabled} required />
      ) : field === 'gstin' ? (
        <GstinInput id={id} value={value} onChange={onChange} disabled={disabled} />
      ) : (
        <input
          id={id}
          name={field}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          required={required}
          inputMode={field === 'postal_code' ? 'numeric' : undefined}
        />
      )}
    </div>
  );
}
