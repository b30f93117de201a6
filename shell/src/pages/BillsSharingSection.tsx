import { LANGUAGE_NAMES, LANGUAGES, useTranslation, type Language } from '@bahi/i18n';
import { Button, Field, FormGrid, SelectField, TextAreaField } from '@bahi/ui-kit';

export type BillFormat = 'a5' | 'thermal-80' | 'thermal-58';
export type TemplateKey = 'document.en' | 'document.hi' | 'reminder.en' | 'reminder.hi' | 'gstr2b_missing.en' | 'gstr2b_missing.hi';

/** The company's bills and sharing settings as the profile form edits them (identity's fields). */
export interface BillsSharing {
  bill_format: BillFormat;
  /** The language documents print in. */
  doc_language: Language;
  /** As typed; sent as a number. */
  share_expiry_days: string;
  /** '' means the shipped default (the server stores no edit and sends the default back). */
  templates: Record<TemplateKey, string>;
}

interface ShareTemplates {
  document: { en: string; hi: string };
  reminder: { en: string; hi: string };
  gstr2b_missing?: { en: string; hi: string };
}

export const TEMPLATE_MAX = 1000;
// The server checks each kind's placeholders (contracts TEMPLATE_PLACEHOLDERS); these are the hints.
const PLACEHOLDERS = '{name} {amount} {due_date} {link} {company} {document}';
const GSTR2B_PLACEHOLDERS = '{name} {company} {bill_no} {bill_date} {tax} {period}';
type TemplateRow = { key: TemplateKey; lang: string };
const TEMPLATES: TemplateRow[] = [
  { key: 'document.en', lang: 'en' },
  { key: 'document.hi', lang: 'hi' },
  { key: 'reminder.en', lang: 'en' },
  { key: 'reminder.hi', lang: 'hi' },
];
const GSTR2B_TEMPLATES: TemplateRow[] = [
  { key: 'gstr2b_missing.en', lang: 'en' },
  { key: 'gstr2b_missing.hi', lang: 'hi' },
];

/** From GET /getCompanyDetails (identity always sends them; an older reply reads as the defaults). */
export function billsSharingOf(reply: object): BillsSharing {
  const c = reply as { bill_format?: BillFormat; doc_language?: Language; share_expiry_days?: number; share_templates?: ShareTemplates };
  const t = c.share_templates;
  return {
    bill_format: c.bill_format ?? 'a5',
    doc_language: c.doc_language === 'hi' ? 'hi' : 'en',
    share_expiry_days: String(c.share_expiry_days ?? 30),
    templates: {
      'document.en': t?.document.en ?? '',
      'document.hi': t?.document.hi ?? '',
      'reminder.en': t?.reminder.en ?? '',
      'reminder.hi': t?.reminder.hi ?? '',
      'gstr2b_missing.en': t?.gstr2b_missing?.en ?? '',
      'gstr2b_missing.hi': t?.gstr2b_missing?.hi ?? '',
    },
  };
}

/** The part of the POST /setCompanyDetails body these settings make. */
export function billsSharingBody(s: BillsSharing) {
  const days = s.share_expiry_days.trim();
  return {
    bill_format: s.bill_format,
    doc_language: s.doc_language,
    // Whole days go as a number; anything else as typed, so the server's sentence names the field.
    share_expiry_days: /^\d+$/.test(days) ? Number(days) : days,
    share_templates: {
      document: { en: s.templates['document.en'], hi: s.templates['document.hi'] },
      reminder: { en: s.templates['reminder.en'], hi: s.templates['reminder.hi'] },
      gstr2b_missing: { en: s.templates['gstr2b_missing.en'], hi: s.templates['gstr2b_missing.hi'] },
    },
  };
}

export type BillsSharingErrors = Partial<Record<'bill_format' | 'doc_language' | 'share_expiry_days' | TemplateKey, string>>;

/** The field a server sentence names (e.g. "share_templates.reminder.hi has an unknown placeholder {naam}; ..."). */
export function billsSharingError(message: string): BillsSharingErrors {
  const t = /share_templates\.(document|reminder|gstr2b_missing)\.(en|hi)/.exec(message);
  if (t) return { [`${t[1]}.${t[2]}`]: message } as BillsSharingErrors;
  if (/bill_format/.test(message)) return { bill_format: message };
  if (/doc_language/.test(message)) return { doc_language: message };
  if (/share_expiry_days/.test(message)) return { share_expiry_days: message };
  return {};
}

/** "Bills and sharing" in the company profile form: the default print format, link expiry and the WhatsApp templates. */
export function BillsSharingSection({ value, onChange, errors }: { value: BillsSharing; onChange: (next: BillsSharing) => void; errors: BillsSharingErrors }) {
  const { t } = useTranslation('shell');
  const hint = (key: keyof BillsSharingErrors, text: string) =>
    errors[key] ? (
      <span className="sh-field-error" data-testid={`error-${key}`}>
        {errors[key]}
      </span>
    ) : (
      text
    );
  return (
    <fieldset className="sh-gst sh-share" data-testid="bills-sharing-section">
      <legend>{t('sharing.legend')}</legend>
      <FormGrid>
        <SelectField
          label={t('sharing.billFormat')}
          name="bill_format"
          value={value.bill_format}
          onChange={(e) => onChange({ ...value, bill_format: e.target.value as BillFormat })}
          className={errors.bill_format ? 'sh-field--invalid' : ''}
          hint={hint('bill_format', t('sharing.billFormatHint'))}
        >
          <option value="a5">{t('sharing.a5')}</option>
          <option value="thermal-80">{t('sharing.thermal80')}</option>
          <option value="thermal-58">{t('sharing.thermal58')}</option>
        </SelectField>
        <SelectField
          label={t('setting.docLanguage')}
          name="doc_language"
          value={value.doc_language}
          onChange={(e) => onChange({ ...value, doc_language: e.target.value as Language })}
          className={errors.doc_language ? 'sh-field--invalid' : ''}
          hint={hint('doc_language', t('setting.docLanguageHint'))}
        >
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </SelectField>
        <Field
          label={t('sharing.expiry')}
          name="share_expiry_days"
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          step={1}
          value={value.share_expiry_days}
          onChange={(e) => onChange({ ...value, share_expiry_days: e.target.value })}
          className={errors.share_expiry_days ? 'sh-field--invalid' : ''}
          hint={hint('share_expiry_days', t('sharing.expiryHint'))}
        />
      </FormGrid>
      <p className="sh-gst__note">
        {t('sharing.notePlaceholders')} <code>{PLACEHOLDERS}</code>. {t('sharing.noteEmpty')}
      </p>
      <TemplateEditors rows={TEMPLATES} value={value} onChange={onChange} errors={errors} />
    </fieldset>
  );
}

const errorHint = (errors: BillsSharingErrors, key: keyof BillsSharingErrors, text: string) =>
  errors[key] ? (
    <span className="sh-field-error" data-testid={`error-${key}`}>
      {errors[key]}
    </span>
  ) : (
    text
  );

/** The WhatsApp template boxes: '' is the shipped message; Reset to default empties a box. */
function TemplateEditors({ rows, value, onChange, errors }: { rows: TemplateRow[]; value: BillsSharing; onChange: (next: BillsSharing) => void; errors: BillsSharingErrors }) {
  const { t } = useTranslation('shell');
  const templateLabel: Record<TemplateKey, string> = {
    'document.en': t('sharing.documentEn'),
    'document.hi': t('sharing.documentHi'),
    'reminder.en': t('sharing.reminderEn'),
    'reminder.hi': t('sharing.reminderHi'),
    'gstr2b_missing.en': t('sharing.gstr2bEn'),
    'gstr2b_missing.hi': t('sharing.gstr2bHi'),
  };
  return (
    <div className="sh-share__templates">
      {rows.map(({ key, lang }) => {
        const text = value.templates[key];
        return (
          <div key={key} className="sh-share__template">
            <TextAreaField
              label={templateLabel[key]}
              name={`template-${key}`}
              lang={lang}
              rows={3}
              value={text}
              maxLength={TEMPLATE_MAX}
              placeholder={t('sharing.shipped')}
              onChange={(e) => onChange({ ...value, templates: { ...value.templates, [key]: e.target.value } })}
              className={errors[key] ? 'sh-field--invalid' : ''}
              hint={errorHint(errors, key, `${text.length} / ${TEMPLATE_MAX}`)}
            />
            <Button
              variant="ghost"
              className="sh-share__reset"
              data-testid={`reset-${key}`}
              disabled={text === ''}
              onClick={() => onChange({ ...value, templates: { ...value.templates, [key]: '' } })}
            >
              {t('sharing.reset')}
            </Button>
          </div>
        );
      })}
    </div>
  );
}

/** GST mode, Setting: the WhatsApp message Purchases > GSTR-2B sends a distributor whose bill is missing in 2B (issue 31). */
export function Gstr2bTemplateSection({ value, onChange, errors }: { value: BillsSharing; onChange: (next: BillsSharing) => void; errors: BillsSharingErrors }) {
  const { t } = useTranslation('shell');
  return (
    <fieldset className="sh-gst sh-share" data-testid="gstr2b-template-section">
      <legend>{t('sharing.gstr2bLegend')}</legend>
      <p className="sh-gst__note">
        {t('sharing.gstr2bNote')} <code>{GSTR2B_PLACEHOLDERS}</code>. {t('sharing.noteEmpty')}
      </p>
      <TemplateEditors rows={GSTR2B_TEMPLATES} value={value} onChange={onChange} errors={errors} />
    </fieldset>
  );
}
