import { useId } from 'react';
import { useTranslation } from '@bahi/i18n';
import { ApiError, Field } from '@bahi/ui-kit';

/** The product's tax fields as the form holds them (strings, as the inputs give them). */
export interface TaxForm {
  tax: string;
  hsn_code: string;
  /** 'true' or 'false' (inventory reads both). */
  price_includes_tax: string;
}
export type TaxErrors = Partial<Record<'tax' | 'hsn_code', string>>;

/** The field a 400 from inventory is about (its messages name the field), or null. */
export function taxFieldOf(message: string): keyof TaxErrors | null {
  if (/^HSN code/i.test(message)) return 'hsn_code';
  if (/GST rate|^tax /i.test(message)) return 'tax';
  return null;
}

/** The tax field a failed request is about, read from the service's own (English) message. */
export function taxFieldOfError(err: unknown): keyof TaxErrors | null {
  return err instanceof ApiError ? taxFieldOf(err.message) : null;
}

/** Tax %, HSN code and "Price includes tax", with the server's message under the field it is about. */
export function TaxFields({
  value,
  onChange,
  errors,
  disabled = false,
}: {
  value: TaxForm;
  onChange: (k: keyof TaxForm, v: string) => void;
  errors: TaxErrors;
  disabled?: boolean;
}) {
  const id = useId();
  const { t } = useTranslation('catalogue');
  // No min/max/step on Tax %: the browser's own tooltip would hide the server's sentence, which names the allowed rates.
  const err = (k: keyof TaxErrors) =>
    errors[k]
      ? {
          'aria-invalid': true,
          'aria-describedby': `${id}-${k}-err`,
          hint: (
            <span id={`${id}-${k}-err`} className="ct-field-error" role="alert">
              {errors[k]}
            </span>
          ),
        }
      : {};
  return (
    <>
      <Field label={t('tax.rate')} disabled={disabled} type="number" step="any" value={value.tax} onChange={(e) => onChange('tax', e.target.value)} {...err('tax')} />
      <Field
        label={t('tax.hsn')}
        disabled={disabled}
        inputMode="numeric"
        maxLength={12}
        value={value.hsn_code}
        onChange={(e) => onChange('hsn_code', e.target.value)}
        {...err('hsn_code')}
      />
      <div className="ct-check-field">
        <div className="ct-check-row">
          <label>
            <input
              type="checkbox"
              disabled={disabled}
              aria-describedby={`${id}-incl`}
              checked={value.price_includes_tax !== 'false'}
              onChange={(e) => onChange('price_includes_tax', String(e.target.checked))}
            />{' '}
            {t('tax.includes')}
          </label>
          <span id={`${id}-incl`} className="bk-muted">
            {t('tax.includesHint')}
          </span>
        </div>
      </div>
    </>
  );
}
