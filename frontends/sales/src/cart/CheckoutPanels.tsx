import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { CounterGstSummary, PaymentLine, PreviewSaleReply } from '@bahi/contracts';
import { i18n, translateServerMessage, useTranslation } from '@bahi/i18n';
import { api, Button, CASH_ONLY, Field, formatINR, PaymentModes, paymentsBody, SelectField, todayISO, type TenderRow } from '@bahi/ui-kit';
import { PurchasePreview } from './PurchasePreview';

export interface SellValues {
  paid: string;
  dueDate: string;
  date: string;
  /** A walk-in buyer's particulars (Rule 46(e)); the server checks them. */
  recipient?: { name: string; address: string; state: string };
  /** How paid is tendered (issue 28); absent for plain cash. The server checks they add up to paid. */
  payments?: PaymentLine[];
}

/** A walk-in's name, address and state, typed when the invoice needs them (Rule 46(e): Rs 50,000 or more). */
function RecipientFields({ value, onChange }: { value: NonNullable<SellValues['recipient']>; onChange(v: NonNullable<SellValues['recipient']>): void }) {
  const { t } = useTranslation('sales');
  return (
    <fieldset className="sl-recipient" data-testid="sell-recipient">
      <legend>{t('sell.recipient.title')}</legend>
      <p className="sl-recipient__why">{t('sell.recipient.why')}</p>
      <div className="sl-recipient__row">
        <Field label={t('sell.recipient.name')} value={value.name} maxLength={100} onChange={(e) => onChange({ ...value, name: e.target.value })} data-testid="sell-recipient-name" />
        <Field label={t('sell.recipient.state')} placeholder={t('sell.recipient.stateHint')} value={value.state} maxLength={60} onChange={(e) => onChange({ ...value, state: e.target.value })} data-testid="sell-recipient-state" />
      </div>
      <Field label={t('sell.recipient.address')} value={value.address} maxLength={250} onChange={(e) => onChange({ ...value, address: e.target.value })} data-testid="sell-recipient-address" />
    </fieldset>
  );
}

/** The invoice a sale will make in GST mode: tax heads, round off, invoice value and the amount due with the previous due. */
function SellInvoice({ gst, total, previousDue }: { gst: CounterGstSummary; total: number; previousDue: number | null }) {
  const { t } = useTranslation('sales');
  const row = (label: string, value: number, id: string) => (
    <>
      <dt>{label}</dt>
      <dd className="bk-money" data-testid={id}>
        {formatINR(value)}
      </dd>
    </>
  );
  return (
    <dl className="sl-rows sl-sell-invoice" data-testid="sell-invoice">
      <dt>{t('gst.placeOfSupply')}</dt>
      <dd data-testid="sell-pos">
        {gst.place_of_supply_name} ({gst.place_of_supply})
      </dd>
      {row(t('gst.taxableValue'), gst.taxable_total, 'sell-taxable')}
      {gst.tax_mode === 'composition'
        ? null
        : gst.inter_state
          ? row(t('gst.igst'), gst.igst_total, 'sell-igst')
          : (
            <>
              {row(t('gst.cgst'), gst.cgst_total, 'sell-cgst')}
              {row(gst.state_tax_name, gst.sgst_total, 'sell-sgst')}
            </>
          )}
      <dt>{t('gst.roundOff')}</dt>
      <dd className="bk-money" data-testid="sell-round-off">
        {gst.round_off > 0 ? '+' : ''}
        {formatINR(gst.round_off)}
      </dd>
      {row(gst.tax_mode === 'composition' ? t('gst.billValue') : t('gst.invoiceValue'), gst.invoice_value, 'sell-invoice-value')}
      {previousDue !== null && (
        <>
          {row(t('gst.previousDue'), previousDue, 'sell-previous-due')}
          <dt className="sl-total">{t('gst.amountDue')}</dt>
          <dd className="sl-total bk-money" data-testid="sell-amount-due">
            {formatINR(total + previousDue)}
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * Sell panel: paid, due date, date; the confirm button is disabled while the checkout runs. Enter confirms.
 * In GST mode it shows the invoice the sale makes (the chosen customer's, from /previewSale) and
 * refuses while the invoice cannot be made.
 */
export function SellPanel({
  total,
  gst,
  preview,
  onSell,
  onError,
}: {
  total: number;
  gst?: CounterGstSummary | null;
  preview?: PreviewSaleReply | null;
  onSell(v: SellValues): Promise<void>;
  onError?(message: string): void;
}) {
  const { t } = useTranslation('sales');
  const invoice = preview?.gst ?? gst ?? null;
  const amount = preview?.gst ? preview.amount : total;
  const [paid, setPaid] = useState(String(amount));
  const touched = useRef(false);
  // A preview arriving after the panel opened sets Paid to its amount unless the cashier typed.
  useEffect(() => {
    if (!touched.current) setPaid(String(amount));
  }, [amount]);
  const [dueDate, setDueDate] = useState(todayISO());
  const [date, setDate] = useState(todayISO());
  const [busy, setBusy] = useState(false);
  const [recipient, setRecipient] = useState({ name: '', address: '', state: '' });
  const [tenders, setTenders] = useState<TenderRow[]>(CASH_ONLY);
  const needsRecipient = Boolean(invoice && !invoice.error && invoice.needs_recipient);
  const submit = async () => {
    if (busy) return;
    if (invoice?.error) return onError?.(invoice.error);
    setBusy(true);
    try {
      // Sent only when asked for; the server says (400) what is still missing.
      const payments = paymentsBody(tenders, paid.trim() || '0');
      await onSell({ paid: paid.trim() || '0', dueDate, date, ...(needsRecipient ? { recipient } : {}), ...(payments ? { payments } : {}) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className={needsRecipient ? 'sl-panel sl-panel--tall' : 'sl-panel'}
      data-testid="sell-panel"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {invoice?.error ? null : invoice ? (
        <SellInvoice gst={invoice} total={amount} previousDue={preview?.gst ? preview.previousDue : null} />
      ) : (
        <p className="sl-total-line">
          {t('sell.total')} <b className="bk-money">{formatINR(total)}</b>
        </p>
      )}
      {invoice?.error && (
        <p className="sl-gst-error" role="alert">
          {translateServerMessage(invoice.error)}
        </p>
      )}
      <Field
        autoFocus
        onFocus={(e) => e.target.select()}
        label={t('sell.paid')}
        inputMode="decimal"
        value={paid}
        onChange={(e) => {
          touched.current = true;
          setPaid(e.target.value);
        }}
        data-testid="sell-paid"
      />
      <PaymentModes rows={tenders} onChange={setTenders} testId="sell-modes" />
      <Field label={t('sell.dueDate')} type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
      <Field label={t('sell.date')} type="date" value={date} onChange={(e) => setDate(e.target.value)} />
      {needsRecipient && <RecipientFields value={recipient} onChange={setRecipient} />}
      <Button type="submit" disabled={busy} data-testid="sell-confirm">
        {busy ? t('sell.selling') : t('sell.confirm')}
      </Button>
    </form>
  );
}

export interface PurchaseValues {
  bill_no: string;
  distributor: string;
  officer: string;
  paid: string;
  due_date: string;
  /** The distributor's bill date and the bill's cost of edited lines (issue 32; cart purchases). */
  bill_date?: string;
  lines?: { sl_no: number; cp: string }[];
}

/** Purchase panel validation (spec 000 §5); null when valid. */
export function purchaseError(v: PurchaseValues, today = todayISO()): string | null {
  if (!v.bill_no.trim()) return i18n.t('sales:purchase.billNoRequired');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(v.paid.trim())) return i18n.t('sales:purchase.paidInvalid');
  if (!v.due_date) return i18n.t('sales:purchase.dueDateRequired');
  if (v.due_date < today) return i18n.t('sales:purchase.dueDatePast');
  return null;
}

interface Checkout {
  distributors: { distributor_id: number; name: string }[];
  officers: { id: number; distributor_id: number; name: string }[];
}

/** Purchase panel (managers): bill number, distributor, officer, paid, due date. */
export function PurchasePanel({
  onPurchase,
  onError,
  hideOfficer,
  cartNo,
}: {
  onPurchase(v: PurchaseValues): Promise<void>;
  onError(msg: string): void;
  hideOfficer?: boolean;
  /** A cart's purchase: shows GET /previewPurchase with editable costs and a bill date. */
  cartNo?: number;
}) {
  // The reorder list preselects the distributor its lines were last bought from (?distributor=N).
  const [params] = useSearchParams();
  const { t } = useTranslation('sales');
  const [v, setV] = useState<PurchaseValues>({
    bill_no: '',
    distributor: params.get('distributor') ?? '',
    officer: '',
    paid: '0',
    due_date: todayISO(),
  });
  const [data, setData] = useState<Checkout>({ distributors: [], officers: [] });
  const [busy, setBusy] = useState(false);
  const [costs, setCosts] = useState<Record<number, string>>({});
  useEffect(() => {
    api
      .get<Checkout>('/checkOutPurchase')
      .then((d) => setData({ distributors: d?.distributors ?? [], officers: d?.officers ?? [] }))
      .catch(() => undefined);
  }, []);
  const set = (k: keyof PurchaseValues) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const officers = data.officers.filter((o) => String(o.distributor_id) === v.distributor);
  return (
    <form
      className="sl-panel"
      data-testid="purchase-panel"
      onSubmit={async (e) => {
        e.preventDefault();
        const err = purchaseError(v);
        if (err) return onError(err);
        setBusy(true);
        try {
          const lines = Object.entries(costs)
            .filter(([, cp]) => cp.trim() !== '')
            .map(([sl, cp]) => ({ sl_no: Number(sl), cp: cp.trim() }));
          await onPurchase(cartNo ? { ...v, bill_date: v.bill_date || undefined, lines } : v);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Field label={t('purchase.billNo')} value={v.bill_no} onChange={set('bill_no')} autoFocus />
      <SelectField label={t('purchase.distributor')} value={v.distributor} onChange={set('distributor')}>
        <option value="">{t('purchase.selectDistributor')}</option>
        {data.distributors.map((d) => (
          <option key={d.distributor_id} value={d.distributor_id}>
            {d.name}
          </option>
        ))}
      </SelectField>
      {!hideOfficer && (
        <SelectField label={t('purchase.officer')} value={v.officer} onChange={set('officer')}>
          <option value="">{t('purchase.selectOfficer')}</option>
          {officers.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </SelectField>
      )}
      {cartNo ? <Field label={t('purchase.billDate')} type="date" value={v.bill_date ?? ''} max={todayISO()} onChange={set('bill_date')} data-testid="purchase-bill-date" /> : null}
      {cartNo ? <PurchasePreview cartNo={cartNo} distributor={v.distributor} costs={costs} onCosts={setCosts} /> : null}
      <Field label={t('sell.paid')} inputMode="decimal" value={v.paid} onChange={set('paid')} />
      <Field label={t('sell.dueDate')} type="date" value={v.due_date} onChange={set('due_date')} />
      <Button type="submit" disabled={busy}>
        {busy ? t('purchase.saving') : t('purchase.confirm')}
      </Button>
    </form>
  );
}
