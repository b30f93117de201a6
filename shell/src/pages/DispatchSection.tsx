import { useTranslation } from '@bahi/i18n';
import { Field, SelectField } from '@bahi/ui-kit';

/** E-way bill and GSTR-2B settings (issue 31) as the company form holds them. */
export interface DispatchSettings {
  pincode: string;
  place: string;
  ewaybill_threshold: string;
  itc_from_matched_only: boolean;
}

export const dispatchOf = (company: object): DispatchSettings => {
  const c = company as { pincode?: string; place?: string; ewaybill_threshold?: number; itc_from_matched_only?: boolean };
  return { pincode: c.pincode ?? '', place: c.place ?? '', ewaybill_threshold: String(c.ewaybill_threshold ?? 50000), itc_from_matched_only: c.itc_from_matched_only === true };
};

/** What setCompanyDetails gets; the threshold as the whole number typed (the server refuses anything else with its sentence). */
export const dispatchBody = (d: DispatchSettings) => ({
  pincode: d.pincode.trim(),
  place: d.place.trim(),
  ewaybill_threshold: /^\d+$/.test(d.ewaybill_threshold.trim()) ? Number(d.ewaybill_threshold.trim()) : d.ewaybill_threshold,
  itc_from_matched_only: d.itc_from_matched_only,
});

export function DispatchSection({ value, onChange, gst }: { value: DispatchSettings; onChange(v: DispatchSettings): void; gst: boolean }) {
  const { t } = useTranslation('shell');
  return (
    <fieldset className="sh-gst" data-testid="dispatch-settings">
      <legend>{t('dispatch.title')}</legend>
      <Field label={t('dispatch.pincode')} name="pincode" inputMode="numeric" maxLength={6} value={value.pincode} onChange={(e) => onChange({ ...value, pincode: e.target.value.replace(/\D/g, '') })} hint={t('dispatch.pincodeHint')} />
      <Field label={t('dispatch.place')} name="place" maxLength={50} value={value.place} onChange={(e) => onChange({ ...value, place: e.target.value })} />
      <Field label={t('dispatch.threshold')} name="ewaybill_threshold" inputMode="numeric" value={value.ewaybill_threshold} onChange={(e) => onChange({ ...value, ewaybill_threshold: e.target.value })} hint={t('dispatch.thresholdHint')} />
      {gst && (
        <SelectField label={t('dispatch.itc')} name="itc_from_matched_only" value={value.itc_from_matched_only ? 'matched' : 'all'} onChange={(e) => onChange({ ...value, itc_from_matched_only: e.target.value === 'matched' })} hint={t('dispatch.itcHint')}>
          <option value="all">{t('dispatch.itcAll')}</option>
          <option value="matched">{t('dispatch.itcMatched')}</option>
        </SelectField>
      )}
    </fieldset>
  );
}
