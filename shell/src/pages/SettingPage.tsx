import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { i18n, translateServerMessage, useTranslation } from '@bahi/i18n';
import {
  ApiError,
  Button,
  Card,
  Field,
  FormActions,
  FormGrid,
  Modal,
  SelectField,
  Spinner,
  api,
  errorMessage,
  useAlert,
  useConfirm,
  useUser,
  useUserContext,
} from '@bahi/ui-kit';
import { PrintersCard } from './PrintersCard';
import { DownloadAllCard } from './DownloadAllCard';
import { AccountantCard } from './AccountantCard';
import { PublicAddressCard } from './PublicAddressCard';
import { ApprovalPinCard, type CounterGuards, counterGuardsBody, counterGuardsOf, CounterGuardsSection } from './CounterGuardsSection';
import { dispatchBody, dispatchOf, DispatchSection, type DispatchSettings } from './DispatchSection';
// The modules, not the index: the index brings decimal.js (36 kB) into every page of the shell.
import { financialYear } from '@bahi/gst/dist/financial-year';
import { formatInvoiceNo } from '@bahi/gst/dist/invoice-number';
import { stateByCode } from '@bahi/gst/dist/states';
import { billsSharingBody, billsSharingError, billsSharingOf, BillsSharingSection, Gstr2bTemplateSection, type BillsSharing, type BillsSharingErrors } from './BillsSharingSection';

interface Company {
  id: number;
  name: string;
  add1: string;
  add2: string;
  mob1: string;
  mob2: string;
  email: string;
  logo: string | null;
  upiId: string | null;
  tax_mode: TaxMode;
  gstin: string | null;
  state_code: string | null;
  invoice_prefix: string;
  /** GSTR-1 monthly, or quarterly under QRMP (sales' gst-filing). */
  gst_filing: 'monthly' | 'quarterly';
  /** Aggregate turnover above Rs 5 crore: products need 6-digit HSN codes (inventory). */
  aato_above_5cr: boolean;
}

type TaxMode = 'simple' | 'gst' | 'composition';

interface CompanyUser {
  id: number;
  name: string;
  email: string;
  position: string;
  is_locked: boolean;
}

const EMPTY: Company = { id: 0, name: '', add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: '', tax_mode: 'simple', gstin: '', state_code: null, invoice_prefix: '', gst_filing: 'monthly', aato_above_5cr: false };

type TFunction = ReturnType<typeof useTranslation>['t'];

/** "Maharashtra (27)" from what is typed so far: the GSTIN's first two digits. */
function stateOf(gstin: string, t: TFunction): string {
  const code = gstin.trim().slice(0, 2);
  if (!/^\d{2}$/.test(code)) return '';
  const state = stateByCode(code);
  return state && !state.retired ? `${state.name} (${code})` : t('gst.unknownState', { code });
}

/** An example invoice number for the prefix, this financial year (e.g. DT/26-27/0001); '' while the prefix is not valid. */
function sampleInvoiceNo(prefix: string): string {
  try {
    return formatInvoiceNo(prefix, financialYear(new Date()), 1);
  } catch {
    return '';
  }
}

/** The GST part of the profile form; the server checks it and its sentence is shown under the field it is about. */
function GstSection({ company, onChange, errors }: { company: Company; onChange: (patch: Partial<Company>) => void; errors: { gstin?: string; prefix?: string } }) {
  const { t } = useTranslation('shell');
  const gstin = company.gstin ?? '';
  const sample = sampleInvoiceNo(company.invoice_prefix);
  return (
    <fieldset className="sh-gst" data-testid="gst-section">
      <legend>{t('gst.legend')}</legend>
      <FormGrid>
        <SelectField
          label={t('gst.taxMode')}
          name="tax_mode"
          value={company.tax_mode}
          onChange={(e) => onChange({ tax_mode: e.target.value as TaxMode })}
          hint={
            company.tax_mode === 'simple' ? t('gst.simpleHint') : company.tax_mode === 'gst' ? t('gst.gstHint') : t('gst.compositionHint')
          }
        >
          <option value="simple">{t('gst.simple')}</option>
          <option value="gst">{t('gst.regular')}</option>
          <option value="composition">{t('gst.composition')}</option>
        </SelectField>
        <Field
          label={t('gst.gstin')}
          name="gstin"
          value={gstin}
          onChange={(e) => onChange({ gstin: e.target.value.toUpperCase() })}
          required={company.tax_mode !== 'simple'}
          maxLength={15}
          autoComplete="off"
          spellCheck={false}
          className={`sh-gstin${errors.gstin ? ' sh-field--invalid' : ''}`}
          aria-invalid={errors.gstin ? true : undefined}
          aria-describedby={errors.gstin ? 'gstin-error' : undefined}
          hint={
            errors.gstin ? (
              <span id="gstin-error" className="sh-field-error" data-testid="gstin-error">
                {errors.gstin}
              </span>
            ) : (
              t('gst.gstinHint')
            )
          }
        />
        <Field label={t('gst.state')} name="gst_state" value={stateOf(gstin, t)} readOnly placeholder={t('gst.statePlaceholder')} />
        <Field
          label={t('gst.prefix')}
          name="invoice_prefix"
          value={company.invoice_prefix}
          onChange={(e) => onChange({ invoice_prefix: e.target.value.toUpperCase() })}
          maxLength={6}
          autoComplete="off"
          spellCheck={false}
          className={errors.prefix ? 'sh-field--invalid' : ''}
          aria-invalid={errors.prefix ? true : undefined}
          aria-describedby={errors.prefix ? 'prefix-error' : undefined}
          hint={
            errors.prefix ? (
              <span id="prefix-error" className="sh-field-error">
                {errors.prefix}
              </span>
            ) : sample ? (
              t('gst.sample', { sample })
            ) : (
              t('gst.prefixHint')
            )
          }
        />
        {company.tax_mode === 'gst' && (
          <SelectField
            label={t('gst.filing')}
            name="gst_filing"
            value={company.gst_filing}
            onChange={(e) => onChange({ gst_filing: e.target.value as Company['gst_filing'] })}
            hint={company.gst_filing === 'quarterly' ? t('gst.quarterlyHint') : t('gst.monthlyHint')}
          >
            <option value="monthly">{t('gst.monthly')}</option>
            <option value="quarterly">{t('gst.quarterly')}</option>
          </SelectField>
        )}
        {company.tax_mode !== 'simple' && (
          <SelectField
            label={t('gst.turnover')}
            name="aato_above_5cr"
            value={company.aato_above_5cr ? 'above' : 'upto'}
            onChange={(e) => onChange({ aato_above_5cr: e.target.value === 'above' })}
            hint={company.aato_above_5cr ? t('gst.turnoverAboveHint') : t('gst.turnoverUptoHint')}
          >
            <option value="upto">{t('gst.turnoverUpto')}</option>
            <option value="above">{t('gst.turnoverAbove')}</option>
          </SelectField>
        )}
      </FormGrid>
      {company.tax_mode === 'composition' && <p className="sh-gst__note">{t('gst.compositionNote')}</p>}
    </fieldset>
  );
}

function CompanyProfile() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const { refresh } = useUserContext();
  const [company, setCompany] = useState<Company | null>(null);
  const [loadedPrefix, setLoadedPrefix] = useState('');
  const [gstErrors, setGstErrors] = useState<{ gstin?: string; prefix?: string }>({});
  const [sharing, setSharing] = useState<BillsSharing | null>(null);
  const [guards, setGuards] = useState<CounterGuards | null>(null);
  const [dispatch, setDispatch] = useState<DispatchSettings | null>(null);
  const [sharingErrors, setSharingErrors] = useState<BillsSharingErrors>({});
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [logoVersion, setLogoVersion] = useState(0);
  const fileRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    api.get<Company>('/getCompanyDetails').then(
      (c) => {
        setCompany({ ...EMPTY, ...c, upiId: c.upiId ?? '', gstin: c.gstin ?? '', tax_mode: c.tax_mode ?? 'simple', invoice_prefix: c.invoice_prefix ?? '' });
        setLoadedPrefix(c.invoice_prefix ?? '');
        setSharing(billsSharingOf(c));
        setGuards(counterGuardsOf(c));
        setDispatch(dispatchOf(c));
      },
      // i18n.t, not t: a language switch must not reload the form (and lose what is typed).
      () => alert.error(i18n.t('shell:setting.noConnection')),
    );
  }, [alert]);

  if (!company || !sharing || !guards || !dispatch) return <Spinner label={t('setting.loadingProfile')} />;
  const set = (k: keyof Company) => (e: React.ChangeEvent<HTMLInputElement>) => setCompany({ ...company, [k]: e.target.value });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { id, name, add1, add2, mob1, mob2, email, upiId, tax_mode, gstin, invoice_prefix, gst_filing, aato_above_5cr } = company;
      // The prefix shown may be the default; it is sent only when changed, so the default follows the name until GST starts.
      const prefix = invoice_prefix !== loadedPrefix ? { invoice_prefix } : {};
      const reply = await api.post<{ done: boolean }>('/setCompanyDetails', { id, name, add1, add2, mob1, mob2, email, upiId: upiId ?? '', tax_mode, gstin: gstin ?? '', ...prefix, ...(gst_filing ? { gst_filing } : {}), ...(typeof aato_above_5cr === 'boolean' ? { aato_above_5cr } : {}), ...billsSharingBody(sharing), ...counterGuardsBody(guards), ...dispatchBody(dispatch) });
      if (reply?.done) {
        setGstErrors({});
        setSharingErrors({});
        const fresh = await api.get<Company>('/getCompanyDetails');
        setSharing(billsSharingOf(fresh));
        setCompany({ ...company, state_code: fresh.state_code, gstin: fresh.gstin ?? '', invoice_prefix: fresh.invoice_prefix });
        setLoadedPrefix(fresh.invoice_prefix);
        alert.success(t('setting.updated'));
        await refresh(); // the company name in the top bar
      } else alert.error(t('setting.updateFailed'));
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.message) {
        // The server's sentence, under the GST field it names (and in the banner).
        setGstErrors({ gstin: /GSTIN/.test(err.message) ? err.message : undefined, prefix: /prefix/i.test(err.message) ? err.message : undefined });
        setSharingErrors(billsSharingError(err.message));
        alert.error(translateServerMessage(err.message));
      } else alert.error(t('setting.updateFailed'));
    } finally {
      setBusy(false);
    }
  };

  const upload = async () => {
    const file = fileRef.current?.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('image', file);
    setUploading(true);
    try {
      await api.upload(`/manage/profile/edit/${company.id}/uploadProfileImage`, form);
      alert.success(t('setting.uploaded'));
      setCompany({ ...company, logo: `/companyLogo/${company.id}` });
      setLogoVersion((v) => v + 1);
    } catch (err) {
      alert.error(t('setting.uploadFailed', { status: String(err instanceof ApiError ? err.status : 500) }));
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <Card title={t('setting.profile')}>
      <div className="sh-profile-grid">
        <div className="sh-logo">
          {company.logo ? (
            <img src={`/api${company.logo}?v=${logoVersion}`} alt={t('setting.logoAlt', { name: company.name })} data-testid="company-logo" />
          ) : (
            <div className="sh-logo__empty">{t('setting.noLogo')}</div>
          )}
          <label className="bk-btn bk-btn--secondary">
            {uploading ? t('setting.uploading') : t('setting.uploadLogo')}
            <input ref={fileRef} type="file" accept="image/*" hidden onChange={upload} name="image" aria-label={t('setting.logoImage')} />
          </label>
        </div>
        <form onSubmit={save} className="sh-profile-form">
          <FormGrid>
            <Field label={t('setting.companyName')} name="name" required value={company.name} onChange={set('name')} />
            <Field label={t('setting.email')} name="email" type="email" value={company.email} onChange={set('email')} />
            <Field label={t('setting.add1')} name="add1" value={company.add1} onChange={set('add1')} />
            <Field label={t('setting.add2')} name="add2" value={company.add2} onChange={set('add2')} />
            <Field label={t('setting.mob1')} name="mob1" inputMode="tel" value={company.mob1} onChange={set('mob1')} />
            <Field label={t('setting.mob2')} name="mob2" inputMode="tel" value={company.mob2} onChange={set('mob2')} />
            <Field label={t('setting.upiId')} name="upiId" value={company.upiId ?? ''} onChange={set('upiId')} hint={t('setting.upiHint')} />
          </FormGrid>
          <GstSection
            company={company}
            errors={gstErrors}
            onChange={(patch) => {
              setCompany({ ...company, ...patch });
              if ('gstin' in patch) setGstErrors((e) => ({ ...e, gstin: undefined }));
              if ('invoice_prefix' in patch) setGstErrors((e) => ({ ...e, prefix: undefined }));
            }}
          />
          <BillsSharingSection
            value={sharing}
            errors={sharingErrors}
            onChange={(next) => {
              setSharing(next);
              setSharingErrors({});
            }}
          />
          <CounterGuardsSection value={guards} onChange={setGuards} />
          <DispatchSection value={dispatch} onChange={setDispatch} gst={company.tax_mode === 'gst'} />
          {company.tax_mode === 'gst' && (
            <Gstr2bTemplateSection
              value={sharing}
              errors={sharingErrors}
              onChange={(next) => {
                setSharing(next);
                setSharingErrors({});
              }}
            />
          )}
          <FormActions>
            <Button type="submit" busy={busy}>
              {t('setting.save')}
            </Button>
          </FormActions>
        </form>
      </div>
    </Card>
  );
}

const NEW_USER = { name: '', email: '', password: '', position: 'staff' };

function CompanyUsers() {
  const { t } = useTranslation('shell');
  const alert = useAlert();
  const confirm = useConfirm();
  const me = useUser();
  const [users, setUsers] = useState<CompanyUser[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [form, setForm] = useState(NEW_USER);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      api.get<{ users: CompanyUser[] }>('/users').then(
        (r) => setUsers(r.users ?? []),
        () => alert.error(i18n.t('shell:setting.noConnection')),
      ),
    [alert],
  );
  useEffect(() => void load(), [load]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await api.post<{ success: boolean; message: string }>('/users', form);
      alert.success(reply?.message ? translateServerMessage(reply.message) : t('users.added'));
      setAdding(false);
      setForm(NEW_USER);
      await load();
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (u: CompanyUser) => {
    if (!(await confirm({ title: t('users.removeTitle'), message: t('users.removeAsk', { name: u.name, email: u.email }), confirmLabel: t('users.remove'), danger: true }))) return;
    try {
      await api.delete(`/users/${u.id}`);
      alert.success(t('users.removed'));
      await load();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  return (
    <Card title={t('users.title')} actions={<Button onClick={() => setAdding(true)}>{t('users.add')}</Button>}>
      {!users ? (
        <Spinner />
      ) : (
        <div className="bk-table-wrap">
          <table className="bk-table" data-testid="company-users">
            <thead>
              <tr>
                <th>{t('users.name')}</th>
                <th>{t('users.email')}</th>
                <th>{t('users.position')}</th>
                <th>{t('users.status')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td>{u.name}</td>
                  <td>{u.email}</td>
                  <td style={{ textTransform: 'capitalize' }}>{u.position === 'manager' ? t('users.manager') : u.position === 'staff' ? t('users.staff') : u.position}</td>
                  <td>{u.is_locked ? <span className="bk-badge bk-badge--danger">{t('users.locked')}</span> : <span className="bk-badge bk-badge--success">{t('users.active')}</span>}</td>
                  <td style={{ textAlign: 'right' }}>
                    {u.id !== me?.id && (
                      <Button variant="ghost" onClick={() => remove(u)}>
                        {t('users.remove')}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Modal open={adding} title={t('users.add')} onClose={() => setAdding(false)}>
        <form onSubmit={add} className="sh-stack">
          <Field label={t('users.name')} name="name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          <Field label={t('users.email')} name="email" type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          <Field label={t('users.password')} name="password" type="password" required minLength={6} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
          <SelectField label={t('users.position')} name="position" value={form.position} onChange={(e) => setForm({ ...form, position: e.target.value })}>
            <option value="staff">{t('users.staff')}</option>
            <option value="manager">{t('users.manager')}</option>
          </SelectField>
          <FormActions>
            <Button variant="ghost" onClick={() => setAdding(false)}>
              {t('users.cancel')}
            </Button>
            <Button type="submit" busy={busy}>
              {t('users.add')}
            </Button>
          </FormActions>
        </form>
      </Modal>
    </Card>
  );
}

/** /setting (managers): company profile with logo, and the company's users. */
export function SettingPage() {
  return (
    <>
      <CompanyProfile />
      <ApprovalPinCard />
      <PrintersCard />
      <PublicAddressCard />
      <CompanyUsers />
      <AccountantCard />
      <DownloadAllCard />
    </>
  );
}
