import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { i18n, useTranslation } from '@bahi/i18n';
import {
  api,
  Button,
  errorMessage,
  Field,
  FormActions,
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
}
// Dispatched today in the shop's calendar (the UTC date is a day behind before 05:30 IST).
const empty = (): Delivery => ({
  transporter_name: '',
  transporter_mobile: '',
  mode_of_transport: '',
  vehicle_number: '',
  dispatched_date: todayISO(),
});
const FIELDS: (keyof Delivery)[] = ['transporter_name', 'transporter_mobile', 'mode_of_transport', 'vehicle_number', 'dispatched_date'];
// Read when shown, in the active language.
const labels = (): Record<keyof Delivery, string> => ({
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
  const set = (k: keyof Delivery) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = k === 'mode_of_transport' || k === 'vehicle_number' ? e.target.value.toUpperCase() : e.target.value;
    setForm({ ...form, [k]: v });
  };
  const save = async () => {
    const missing = FIELDS.filter((k) => !String(form[k]).trim());
    if (missing.length) return alert.error(t('customerForm.required', { field: labels()[missing[0]!] }));
    try {
      const body = { ...form, sale_id: Number(id) };
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
            value={form[k]}
            onChange={set(k)}
            disabled={readOnly}
            required
          />
        ))}
      </FormGrid>
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
