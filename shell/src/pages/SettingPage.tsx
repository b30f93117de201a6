import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
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
// The modules, not the index: the index brings decimal.js (36 kB) into every page of the shell.
import { financialYear } from '@bahi/gst/dist/financial-year';
import { formatInvoiceNo } from '@bahi/gst/dist/invoice-number';
import { stateByCode } from '@bahi/gst/dist/states';
import { billsSharingBody, billsSharingError, billsSharingOf, BillsSharingSection, type BillsSharing, type BillsSharingErrors } from './BillsSharingSection';

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
}

type TaxMode = 'simple' | 'gst' | 'composition';

interface CompanyUser {
  id: number;
  name: string;
  email: string;
  position: string;
  is_locked: boolean;
}

const EMPTY: Company = { id: 0, name: '', add1: '', add2: '', mob1: '', mob2: '', email: '', logo: null, upiId: '', tax_mode: 'simple', gstin: '', state_code: null, invoice_prefix: '' };

/** "Maharashtra (27)" from what is typed so far: the GSTIN's first two digits. */
function stateOf(gstin: string): string {
  const code = gstin.trim().slice(0, 2);
  if (!/^\d{2}$/.test(code)) return '';
  const state = stateByCode(code);
  return state && !state.retired ? `${state.name} (${code})` : `Unknown state code ${code}`;
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
  const gstin = company.gstin ?? '';
  const sample = sampleInvoiceNo(company.invoice_prefix);
  return (
    <fieldset className="sh-gst" data-testid="gst-section">
      <legend>GST</legend>
      <FormGrid>
        <SelectField
          label="Tax mode"
          name="tax_mode"
          value={company.tax_mode}
          onChange={(e) => onChange({ tax_mode: e.target.value as TaxMode })}
          hint={
            company.tax_mode === 'simple'
              ? 'Bills as today: a flat 18 % Tax when the cart asks for it.'
              : company.tax_mode === 'gst'
                ? 'Tax invoices with CGST and SGST, or IGST.'
                : 'Bills of supply: no tax collected.'
          }
        >
          <option value="simple">Simple</option>
          <option value="gst">GST regular</option>
          <option value="composition">Composition</option>
        </SelectField>
        <Field
          label="GSTIN"
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
              '15 characters, e.g. 27AAPFU0939F1ZV'
            )
          }
        />
        <Field label="State (from GSTIN)" name="gst_state" value={stateOf(gstin)} readOnly placeholder="From the GSTIN's first two digits" />
        <Field
          label="Invoice prefix"
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
              `Invoice numbers: ${sample}`
            ) : (
              '1 to 6 letters or digits'
            )
          }
        />
      </FormGrid>
      {company.tax_mode === 'composition' && <p className="sh-gst__note">Bills will say: Composition taxable person, not eligible to collect tax on supplies.</p>}
    </fieldset>
  );
}

function CompanyProfile() {
  const alert = useAlert();
  const { refresh } = useUserContext();
  const [company, setCompany] = useState<Company | null>(null);
  const [loadedPrefix, setLoadedPrefix] = useState('');
  const [gstErrors, setGstErrors] = useState<{ gstin?: string; prefix?: string }>({});
  const [sharing, setSharing] = useState<BillsSharing | null>(null);
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
      },
      () => alert.error('unable to connet to server'),
    );
  }, [alert]);

  if (!company || !sharing) return <Spinner label="Loading company profile…" />;
  const set = (k: keyof Company) => (e: React.ChangeEvent<HTMLInputElement>) => setCompany({ ...company, [k]: e.target.value });

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { id, name, add1, add2, mob1, mob2, email, upiId, tax_mode, gstin, invoice_prefix } = company;
      // The prefix shown may be the default; it is sent only when changed, so the default follows the name until GST starts.
      const prefix = invoice_prefix !== loadedPrefix ? { invoice_prefix } : {};
      const reply = await api.post<{ done: boolean }>('/setCompanyDetails', { id, name, add1, add2, mob1, mob2, email, upiId: upiId ?? '', tax_mode, gstin: gstin ?? '', ...prefix, ...billsSharingBody(sharing) });
      if (reply?.done) {
        setGstErrors({});
        setSharingErrors({});
        const fresh = await api.get<Company>('/getCompanyDetails');
        setSharing(billsSharingOf(fresh));
        setCompany({ ...company, state_code: fresh.state_code, gstin: fresh.gstin ?? '', invoice_prefix: fresh.invoice_prefix });
        setLoadedPrefix(fresh.invoice_prefix);
        alert.success('Profile Updated.');
        await refresh(); // the company name in the top bar
      } else alert.error('Internal server error, cannot update the details.');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.message) {
        // The server's sentence, under the GST field it names (and in the banner).
        setGstErrors({ gstin: /GSTIN/.test(err.message) ? err.message : undefined, prefix: /prefix/i.test(err.message) ? err.message : undefined });
        setSharingErrors(billsSharingError(err.message));
        alert.error(err.message);
      } else alert.error('Internal server error, cannot update the details.');
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
      alert.success('Image was uploaded successfully.');
      setCompany({ ...company, logo: `/companyLogo/${company.id}` });
      setLogoVersion((v) => v + 1);
    } catch (err) {
      alert.error(`${err instanceof ApiError ? err.status : 500} error`);
    } finally {
      setUploading(false);
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  return (
    <Card title="Company Profile">
      <div className="sh-profile-grid">
        <div className="sh-logo">
          {company.logo ? (
            <img src={`/api${company.logo}?v=${logoVersion}`} alt={`${company.name} logo`} data-testid="company-logo" />
          ) : (
            <div className="sh-logo__empty">No logo</div>
          )}
          <label className="bk-btn bk-btn--secondary">
            {uploading ? 'Uploading…' : 'Upload Logo'}
            <input ref={fileRef} type="file" accept="image/*" hidden onChange={upload} name="image" aria-label="Logo image" />
          </label>
        </div>
        <form onSubmit={save} className="sh-profile-form">
          <FormGrid>
            <Field label="Company Name" name="name" required value={company.name} onChange={set('name')} />
            <Field label="Email" name="email" type="email" value={company.email} onChange={set('email')} />
            <Field label="Address Line 1" name="add1" value={company.add1} onChange={set('add1')} />
            <Field label="Address Line 2" name="add2" value={company.add2} onChange={set('add2')} />
            <Field label="Mobile 1" name="mob1" inputMode="tel" value={company.mob1} onChange={set('mob1')} />
            <Field label="Mobile 2" name="mob2" inputMode="tel" value={company.mob2} onChange={set('mob2')} />
            <Field label="UPI Id" name="upiId" value={company.upiId ?? ''} onChange={set('upiId')} hint="Printed as a payment QR code on bills" />
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
          <FormActions>
            <Button type="submit" busy={busy}>
              Save
            </Button>
          </FormActions>
        </form>
      </div>
    </Card>
  );
}

const NEW_USER = { name: '', email: '', password: '', position: 'staff' };

function CompanyUsers() {
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
        () => alert.error('unable to connet to server'),
      ),
    [alert],
  );
  useEffect(() => void load(), [load]);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const reply = await api.post<{ success: boolean; message: string }>('/users', form);
      alert.success(reply?.message || 'User added.');
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
    if (!(await confirm({ title: 'Remove user', message: `Do you want to remove ${u.name} (${u.email})?`, confirmLabel: 'Remove', danger: true }))) return;
    try {
      await api.delete(`/users/${u.id}`);
      alert.success('User removed.');
      await load();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  return (
    <Card title="Users" actions={<Button onClick={() => setAdding(true)}>Add User</Button>}>
      {!users ? (
        <Spinner />
      ) : (
        <table className="bk-table" data-testid="company-users">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Position</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td style={{ textTransform: 'capitalize' }}>{u.position}</td>
                <td>{u.is_locked ? <span className="bk-badge bk-badge--danger">Locked</span> : <span className="bk-badge bk-badge--success">Active</span>}</td>
                <td style={{ textAlign: 'right' }}>
                  {u.id !== me?.id && (
                    <Button variant="ghost" onClick={() => remove(u)}>
                      Remove
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Modal open={adding} title="Add User" onClose={() => setAdding(false)}>
        <form onSubmit={add} className="sh-stack">
          <Field label="Name" name="name" required value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          <Field label="Email" name="email" type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
          <Field label="Password" name="password" type="password" required minLength={6} value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
          <SelectField label="Position" name="position" value={form.position} onChange={(e) => setForm({ ...form, position: e.target.value })}>
            <option value="staff">Staff</option>
            <option value="manager">Manager</option>
          </SelectField>
          <FormActions>
            <Button variant="ghost" onClick={() => setAdding(false)}>
              Cancel
            </Button>
            <Button type="submit" busy={busy}>
              Add User
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
      <CompanyUsers />
    </>
  );
}
