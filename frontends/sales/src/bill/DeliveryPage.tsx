import { useEffect, useState } from 'react';
import './ewaybill.css';
import { useNavigate, useParams } from 'react-router-dom';
import { i18n, useTranslation } from '@bahi/i18n';
import type { BillEwaybill } from '@bahi/contracts';
import {
  api,
  ApiError,
  Button,
  errorMessage,
  Field,
  FormActions,
  requestBlob,
  saveFile,
  SelectField,
  FormGrid,
  openDocument,
  Spinner,
  todayISO,
  useAlert,
  usePageHeader,
} from '@bahi/ui-kit';

interface Delivery {
  transporter_name: string;
  transporter_mobile: string;
  mode_of_transport: string;
  vehicle_number: string;
  dispatched_date: string;
  /** E-way bill fields (issue 31); '' in the form for none. */
  transport_mode?: string | null;
  vehicle_type?: string | null;
  distance_km?: number | string | null;
  transporter_id?: string | null;
  transporter_doc_no?: string | null;
  transporter_doc_date?: string | null;
  ship_to_pincode?: string | null;
  ship_to_state?: string | null;
}
const EWB_TEXT = ['distance_km', 'transporter_id', 'transporter_doc_no', 'transporter_doc_date', 'ship_to_pincode', 'ship_to_state'] as const;
/** The body's e-way bill part: empty fields go as null (none). */
const ewbBody = (f: Delivery) => ({
  transport_mode: f.transport_mode || null,
  vehicle_type: f.vehicle_type || null,
  ...Object.fromEntries(EWB_TEXT.map((k) => [k, String(f[k] ?? '').trim() || null])),
  distance_km: String(f.distance_km ?? '').trim() === '' ? null : Number(f.distance_km),
});
// Dispatched today in the shop's calendar (the UTC date is a day behind before 05:30 IST).
const empty = (): Delivery => ({
  transporter_name: '',
  transporter_mobile: '',
  mode_of_transport: '',
  vehicle_number: '',
  dispatched_date: todayISO(),
});
const FIELDS = ['transporter_name', 'transporter_mobile', 'mode_of_transport', 'vehicle_number', 'dispatched_date'] as const;
// Read when shown, in the active language.
const labels = (): Record<(typeof FIELDS)[number], string> => ({
  transporter_name: i18n.t('sales:delivery.transporterName'),
  transporter_mobile: i18n.t('sales:delivery.transporterMobile'),
  mode_of_transport: i18n.t('sales:delivery.mode'),
  vehicle_number: i18n.t('sales:delivery.vehicle'),
  dispatched_date: i18n.t('sales:delivery.dispatched'),
});

/** Delivery details (spec 001): add when none exists, else read / edit; back to read after a save. */
export default function DeliveryPage() {
  const { id = '' } = useParams();
  const [saved, setSaved] = useState<Delivery | null>(null);
  const [form, setForm] = useState<Delivery>(empty);
  const [mode, setMode] = useState<'loading' | 'add' | 'read' | 'edit'>('loading');
  const alert = useAlert();
  const navigate = useNavigate();
  const { t } = useTranslation('sales');
  usePageHeader(
    <span>
      {t('delivery.title')} · {t('bill.header', { no: id })}
    </span>,
    [id, t],
  );

  useEffect(() => {
    api
      .get<{ data: Delivery | null }>(`/addDelivery/${id}`)
      .then((r) => {
        setSaved(r.data);
        setForm(r.data ?? empty());
        setMode(r.data ? 'read' : 'add');
      })
      .catch((err) => {
        alert.error(errorMessage(err));
        navigate('..');
      });
  }, [id]); // loads once per sale id

  if (mode === 'loading') return <Spinner />;
  const set = (k: (typeof FIELDS)[number]) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = k === 'mode_of_transport' || k === 'vehicle_number' ? e.target.value.toUpperCase() : e.target.value;
    setForm({ ...form, [k]: v });
  };
  const save = async () => {
    const missing = FIELDS.filter((k) => !String(form[k]).trim());
    if (missing.length) return alert.error(t('customerForm.required', { field: labels()[missing[0]!] }));
    try {
      const body = { ...form, ...ewbBody(form), sale_id: Number(id) };
      const r =
        mode === 'add'
          ? await api.post<{ data: Delivery }>('/delivery', body)
          : await api.put<{ data: Delivery }>('/delivery', body);
      setSaved(r.data);
      setForm(r.data);
      setMode('read');
      alert.success(t('delivery.saved'));
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };
  const readOnly = mode === 'read';
  return (
    <section className="bk-card sl-card" data-testid="delivery-form">
      <header className="sl-card__head">
        <h2>{t('delivery.title')}</h2>
      </header>
      <FormGrid>
        {FIELDS.map((k) => (
          <Field
            key={k}
            label={labels()[k]}
            type={k === 'dispatched_date' ? 'date' : 'text'}
            value={String(form[k] ?? '')}
            onChange={set(k)}
            disabled={readOnly}
            required
          />
        ))}
      </FormGrid>
      <fieldset className="sl-ewb" data-testid="ewaybill-fields">
        <legend>{t('ewaybill.title')}</legend>
        <FormGrid>
          <SelectField label={t('ewaybill.transportMode')} name="transport_mode" value={form.transport_mode ?? ''} disabled={readOnly} onChange={(e) => setForm({ ...form, transport_mode: e.target.value })}>
            <option value="">—</option>
            {['road', 'rail', 'air', 'ship'].map((m) => (
              <option key={m} value={m}>
                {t(`ewaybill.modes.${m}`)}
              </option>
            ))}
          </SelectField>
          <SelectField label={t('ewaybill.vehicleType')} name="vehicle_type" value={form.vehicle_type ?? ''} disabled={readOnly} onChange={(e) => setForm({ ...form, vehicle_type: e.target.value })}>
            <option value="">—</option>
            <option value="regular">{t('ewaybill.regular')}</option>
            <option value="odc">{t('ewaybill.odc')}</option>
          </SelectField>
          {EWB_TEXT.map((k) => (
            <Field
              key={k}
              name={k}
              label={t(`ewaybill.${k}`)}
              type={k === 'transporter_doc_date' ? 'date' : 'text'}
              inputMode={k === 'distance_km' || k === 'ship_to_pincode' ? 'numeric' : undefined}
              value={String(form[k] ?? '')}
              disabled={readOnly}
              onChange={(e) => setForm({ ...form, [k]: k === 'transporter_id' ? e.target.value.toUpperCase() : e.target.value })}
            />
          ))}
        </FormGrid>
      </fieldset>
      {readOnly && <EwaybillRecord saleId={id} />}
      <FormActions>
        {readOnly ? (
          <>
            <Button onClick={() => setMode('edit')}>{t('common.edit')}</Button>
            <Button
              variant="secondary"
              data-testid="print-challan"
              onClick={() =>
                openDocument(`/documents/challan/${id}`, { print: true }).catch(() =>
                  alert.error(t('delivery.printFailed')),
                )
              }
            >
              {t('delivery.printChallan')}
            </Button>
          </>
        ) : (
          <>
            <Button onClick={() => void save()}>{t('common.save')}</Button>
            {mode === 'edit' && (
              <Button variant="secondary" onClick={() => (setForm(saved ?? empty()), setMode('read'))}>
                {t('common.cancel')}
              </Button>
            )}
          </>
        )}
        <Button variant="secondary" onClick={() => navigate('..', { relative: 'path' })}>
          {t('delivery.back')}
        </Button>
      </FormActions>
    </section>
  );
}

/** The e-way bill itself: the portal's JSON for this bill, and the number and validity the portal gave. */
function EwaybillRecord({ saleId }: { saleId: string }) {
  const { t } = useTranslation('sales');
  const alert = useAlert();
  const [ewb, setEwb] = useState<BillEwaybill | null>(null);
  const [form, setForm] = useState({ ewb_no: '', valid_until: '' });
  useEffect(() => {
    api.get<{ ewaybill?: BillEwaybill }>('/getBillDetails', { query: { id: saleId } }).then(
      (r) => setEwb(r.ewaybill ?? null),
      () => undefined,
    );
  }, [saleId]);
  const download = async () => {
    try {
      const { blob } = await requestBlob('/ewaybill/json', { query: { ids: saleId } });
      saveFile(blob, `ewaybill-${saleId}.json`);
    } catch (err) {
      alert.error(err instanceof ApiError ? errorMessage(err) : t('ewaybill.downloadFailed'));
    }
  };
  const record = async () => {
    try {
      // datetime-local has no zone: the shop's time is IST.
      const r = await api.put<{ ewaybill: BillEwaybill }>(`/ewaybill/${saleId}`, { ewb_no: form.ewb_no, valid_until: form.valid_until ? `${form.valid_until}:00+05:30` : '' });
      setEwb(r.ewaybill);
      alert.success(t('ewaybill.recorded'));
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };
  return (
    <fieldset className="sl-ewb" data-testid="ewaybill-record">
      <legend>{t('ewaybill.record')}</legend>
      {ewb?.needed && <p className="sl-ewb-badge">{t('ewaybill.needed')}</p>}
      {ewb?.ewb_no && (
        <p data-testid="ewaybill-recorded">
          {t('ewaybill.no')} <b>{ewb.ewb_no}</b> · {t('ewaybill.validUntil')} {ewb.valid_until ? new Date(ewb.valid_until).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata' }) : ''}
        </p>
      )}
      <FormGrid>
        <Field label={t('ewaybill.no')} name="ewb_no" inputMode="numeric" maxLength={14} value={form.ewb_no} onChange={(e) => setForm({ ...form, ewb_no: e.target.value })} />
        <Field label={t('ewaybill.validUntil')} name="valid_until" type="datetime-local" value={form.valid_until} onChange={(e) => setForm({ ...form, valid_until: e.target.value })} />
      </FormGrid>
      <FormActions>
        <Button variant="secondary" onClick={() => void download()} data-testid="ewaybill-json">
          {t('ewaybill.json')}
        </Button>
        <Button onClick={() => void record()} data-testid="ewaybill-save">
          {t('ewaybill.save')}
        </Button>
      </FormActions>
    </fieldset>
  );
}
