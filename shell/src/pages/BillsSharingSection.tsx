import { Button, Field, FormGrid, SelectField, TextAreaField } from '@bahi/ui-kit';

export type BillFormat = 'a5' | 'thermal-80' | 'thermal-58';
export type TemplateKey = 'document.en' | 'document.hi' | 'reminder.en' | 'reminder.hi';

/** The company's bills and sharing settings as the profile form edits them (identity's fields). */
export interface BillsSharing {
  bill_format: BillFormat;
  /** As typed; sent as a number. */
  share_expiry_days: string;
  /** '' means the shipped default (the server stores no edit and sends the default back). */
  templates: Record<TemplateKey, string>;
}

interface ShareTemplates {
  document: { en: string; hi: string };
  reminder: { en: string; hi: string };
}

export const TEMPLATE_MAX = 1000;
const PLACEHOLDERS = '{name} {amount} {due_date} {link} {company} {document}';
const TEMPLATES: { key: TemplateKey; label: string; lang: string }[] = [
  { key: 'document.en', label: 'Document message (English)', lang: 'en' },
  { key: 'document.hi', label: 'Document message (Hindi)', lang: 'hi' },
  { key: 'reminder.en', label: 'Due reminder (English)', lang: 'en' },
  { key: 'reminder.hi', label: 'Due reminder (Hindi)', lang: 'hi' },
];

/** From GET /getCompanyDetails (identity always sends them; an older reply reads as the defaults). */
export function billsSharingOf(reply: object): BillsSharing {
  const c = reply as { bill_format?: BillFormat; share_expiry_days?: number; share_templates?: ShareTemplates };
  const t = c.share_templates;
  return {
    bill_format: c.bill_format ?? 'a5',
    share_expiry_days: String(c.share_expiry_days ?? 30),
    templates: { 'document.en': t?.document.en ?? '', 'document.hi': t?.document.hi ?? '', 'reminder.en': t?.reminder.en ?? '', 'reminder.hi': t?.reminder.hi ?? '' },
  };
}

/** The part of the POST /setCompanyDetails body these settings make. */
export function billsSharingBody(s: BillsSharing) {
  const days = s.share_expiry_days.trim();
  return {
    bill_format: s.bill_format,
    // Whole days go as a number; anything else as typed, so the server's sentence names the field.
    share_expiry_days: /^\d+$/.test(days) ? Number(days) : days,
    share_templates: {
      document: { en: s.templates['document.en'], hi: s.templates['document.hi'] },
      reminder: { en: s.templates['reminder.en'], hi: s.templates['reminder.hi'] },
    },
  };
}

export type BillsSharingErrors = Partial<Record<'bill_format' | 'share_expiry_days' | TemplateKey, string>>;

/** The field a server sentence names (e.g. "share_templates.reminder.hi has an unknown placeholder {naam}; ..."). */
export function billsSharingError(message: string): BillsSharingErrors {
  const t = /share_templates\.(document|reminder)\.(en|hi)/.exec(message);
  if (t) return { [`${t[1]}.${t[2]}`]: message } as BillsSharingErrors;
  if (/bill_format/.test(message)) return { bill_format: message };
  if (/share_expiry_days/.test(message)) return { share_expiry_days: message };
  return {};
}

/** "Bills and sharing" in the company profile form: the default print format, link expiry and the WhatsApp templates. */
export function BillsSharingSection({ value, onChange, errors }: { value: BillsSharing; onChange: (next: BillsSharing) => void; errors: BillsSharingErrors }) {
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
      <legend>Bills and sharing</legend>
      <FormGrid>
        <SelectField
          label="Bill print format"
          name="bill_format"
          value={value.bill_format}
          onChange={(e) => onChange({ ...value, bill_format: e.target.value as BillFormat })}
          className={errors.bill_format ? 'sh-field--invalid' : ''}
          hint={hint('bill_format', 'What Print and the after-sale print use; the bill view offers the others.')}
        >
          <option value="a5">A5 bill (A4 in GST mode)</option>
          <option value="thermal-80">Thermal receipt 80 mm</option>
          <option value="thermal-58">Thermal receipt 58 mm</option>
        </SelectField>
        <Field
          label="Share links expire after (days)"
          name="share_expiry_days"
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          step={1}
          value={value.share_expiry_days}
          onChange={(e) => onChange({ ...value, share_expiry_days: e.target.value })}
          className={errors.share_expiry_days ? 'sh-field--invalid' : ''}
          hint={hint('share_expiry_days', '1 to 365 days; 30 unless changed.')}
        />
      </FormGrid>
      <p className="sh-gst__note">
        WhatsApp messages. Placeholders: <code>{PLACEHOLDERS}</code>. An empty message uses the shipped one.
      </p>
      <div className="sh-share__templates">
        {TEMPLATES.map(({ key, label, lang }) => {
          const text = value.templates[key];
          return (
            <div key={key} className="sh-share__template">
              <TextAreaField
                label={label}
                name={`template-${key}`}
                lang={lang}
                rows={3}
                value={text}
                maxLength={TEMPLATE_MAX}
                placeholder="The shipped message is used"
                onChange={(e) => onChange({ ...value, templates: { ...value.templates, [key]: e.target.value } })}
                className={errors[key] ? 'sh-field--invalid' : ''}
                hint={hint(key, `${text.length} / ${TEMPLATE_MAX}`)}
              />
              <Button
                variant="ghost"
                className="sh-share__reset"
                data-testid={`reset-${key}`}
                disabled={text === ''}
                onClick={() => onChange({ ...value, templates: { ...value.templates, [key]: '' } })}
              >
                Reset to default
              </Button>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
