// The counter screen the cart and the estimate editor share: the two cards, the summary rows
// (simple mode's Tax checkbox, or GST mode's taxable value and tax heads), the checkout panels
// and what a sale does when it is made. Each screen only says where its requests go.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { translateServerMessage, useTranslation } from '@bahi/i18n';
import { api, ApiError, formatINR, newIdempotencyKey, useAlert, useConfirm } from '@bahi/ui-kit';
import type { CounterGstSummary, MakeSaleReply, PreviewSaleReply } from '@bahi/contracts';
import type { Customer } from '../clients/customer';
import { AmountInput, CheckoutModal, CustomerChooser, type Panel } from './SummaryParts';
import type { PurchaseValues, SellValues } from './CheckoutPanels';
import { EMPTY_CART, fmt2, GENERIC_FAILURE, type Summery } from './lines';
import { counterPrinterId, printToCounter } from '../bill/CounterPrinter';

/**
 * The shipping and discount boxes. A server summary replaces their text unless the cashier has
 * typed something else since the last one was shown (that text is saved on blur).
 */
export function useAmountBoxes() {
  const shown = useRef({ shipping: '0', discount: '0' });
  const [shipping, setShipping] = useState('0');
  const [discount, setDiscount] = useState('0');
  const show = (s: Pick<Summery, 'shipping' | 'discount'>) => {
    const prev = shown.current;
    shown.current = { shipping: String(s.shipping), discount: String(s.discount) };
    setShipping((t) => (t === prev.shipping ? String(s.shipping) : t));
    setDiscount((t) => (t === prev.discount ? String(s.discount) : t));
  };
  return { shipping, setShipping, discount, setDiscount, show };
}
export type AmountBoxes = ReturnType<typeof useAmountBoxes>;

/** GST figures: a signed amount (round off) keeps its sign, '+0.20' / '-0.30'. */
const signed = (n: number) => `${n > 0 ? '+' : ''}${formatINR(n)}`;

/** The GST rows of a summary: place of supply, taxable value, each tax head, round off. */
function GstRows({ gst, id }: { gst: CounterGstSummary; id: (k: string) => string }) {
  const { t } = useTranslation('sales');
  return (
    <>
      <dt>{t('gst.placeOfSupply')}</dt>
      <dd data-testid={id('gst-pos')}>
        {gst.place_of_supply_name} ({gst.place_of_supply})
      </dd>
      <dt>{t('gst.taxableValue')}</dt>
      <dd className="bk-money" data-testid={id('gst-taxable')}>
        {formatINR(gst.taxable_total)}
      </dd>
      {gst.tax_mode === 'composition' ? null : gst.inter_state ? (
        <>
          <dt>{t('gst.igst')}</dt>
          <dd className="bk-money" data-testid={id('gst-igst')}>
            {formatINR(gst.igst_total)}
          </dd>
        </>
      ) : (
        <>
          <dt>{t('gst.cgst')}</dt>
          <dd className="bk-money" data-testid={id('gst-cgst')}>
            {formatINR(gst.cgst_total)}
          </dd>
          <dt>{gst.state_tax_name}</dt>
          <dd className="bk-money" data-testid={id('gst-sgst')}>
            {formatINR(gst.sgst_total)}
          </dd>
        </>
      )}
      <dt>{t('gst.roundOff')}</dt>
      <dd className="bk-money" data-testid={id('gst-round-off')}>
        {signed(gst.round_off)}
      </dd>
    </>
  );
}

/** Why no invoice can be made yet (a product without HSN, an inter-state supply in composition mode). */
export function GstError({ gst }: { gst: CounterGstSummary | null | undefined }) {
  // Re-rendered on a language switch; the service's reason is shown in the active language.
  useTranslation('sales');
  if (!gst?.error) return null;
  return (
    <p className="sl-gst-error" role="alert" data-testid="gst-error">
      {translateServerMessage(gst.error)}
    </p>
  );
}

/**
 * The summary rows. Simple mode: Subtotal, Due, the Tax (18%) checkbox, Shipping, Discount, Total.
 * GST mode (`gst` set): the Tax checkbox does not apply; Shipping and Discount are before tax and
 * are followed by the taxable value, the tax heads, the round off and the invoice value.
 */
export function SummaryRows({
  summery,
  gst,
  due,
  boxes,
  idPrefix = '',
  onTax,
  onShipping,
  onDiscount,
  discountError,
}: {
  summery: Summery;
  /** The figures to show in GST mode: the cart's, or the preview for the chosen customer. */
  gst: CounterGstSummary | null;
  due: number;
  boxes: AmountBoxes;
  /** Prefix of the rows' test ids ('' on the cart, 'estimate-' in the estimate editor). */
  idPrefix?: string;
  onTax(tax: 0 | 1): void;
  onShipping(): void;
  onDiscount(): void;
  /** The sentence refusing the summary discount (issue 28), shown beside its box. */
  discountError?: string | null;
}) {
  const id = (k: string) => `${idPrefix}${k}`;
  const { t } = useTranslation('sales');
  return (
    <dl className="sl-rows">
      {!gst && (
        <>
          <dt>{t('summary.subtotal')}</dt>
          <dd className="bk-money" data-testid={id('subtotal')}>
            {formatINR(summery.subtotal)}
          </dd>
        </>
      )}
      <dt>{t('summary.due')}</dt>
      <dd className="bk-money" data-testid={id('due')}>
        {formatINR(due, 0)}
      </dd>
      {!gst && (
        <>
          <dt>
            <label>
              <input type="checkbox" checked={summery.tax === 1} data-testid={id('tax')} onChange={(e) => onTax(e.target.checked ? 1 : 0)} /> {t('summary.tax')}
            </label>
          </dt>
          <dd className="bk-money" data-testid={id('tax-amount')}>
            {formatINR(summery.taxAmount)}
          </dd>
        </>
      )}
      <dt>{gst ? t('summary.shippingBeforeTax') : t('summary.shipping')}</dt>
      <dd>
        <AmountInput label={t('summary.shipping')} value={boxes.shipping} saved={summery.shipping} onChange={boxes.setShipping} onCommit={onShipping} />
      </dd>
      <dt>{gst ? t('summary.discountBeforeTax') : t('summary.discount')}</dt>
      <dd>
        <AmountInput label={t('summary.discount')} value={boxes.discount} saved={summery.discount} onChange={boxes.setDiscount} onCommit={onDiscount} />
      </dd>
      {discountError && (
        // Under the box across the row, so the labels keep their width.
        <dd className="sl-field-error sl-rows__full" role="alert" data-testid={id('discount-error')}>
          {discountError}
        </dd>
      )}
      {/* While no invoice can be made its figures mean nothing: the error below says why. */}
      {gst && !gst.error && <GstRows gst={gst} id={id} />}
      <dt className="sl-total">{gst ? (gst.tax_mode === 'composition' ? t('gst.billValue') : t('gst.invoiceValue')) : t('sell.total')}</dt>
      <dd className="sl-total bk-money" data-testid={id('total')}>
        {gst?.error ? '—' : formatINR(gst ? gst.invoice_value : summery.total)}
      </dd>
    </dl>
  );
}

/**
 * The invoice a sale to `clientId` would make, in GST mode only (a cart is priced for the walk-in
 * until a customer is chosen). `version` changes whenever the lines or the summary change.
 */
export function useSalePreview(gstMode: boolean, query: { cart_no?: number; estimateId?: number; clientId: number }, version: unknown) {
  const [preview, setPreview] = useState<PreviewSaleReply | null>(null);
  const key = JSON.stringify([gstMode, query, version]);
  useEffect(() => {
    if (!gstMode || !query.clientId) return setPreview(null);
    const ctrl = new AbortController();
    api
      .get<PreviewSaleReply>('/previewSale', { query, signal: ctrl.signal })
      .then((r) => !ctrl.signal.aborted && setPreview(r))
      .catch(() => !ctrl.signal.aborted && setPreview(null));
    return () => ctrl.abort();
    // The key holds every input.
  }, [key]);
  return preview;
}

/**
 * The checkout of a counter screen: which panel is open, a fresh idempotency key each time the sell
 * or purchase panel opens (retries and double clicks inside it reuse it), and what a sale and a
 * purchase do when the server answers.
 */
export function useCheckout(isEmpty: () => boolean) {
  const [panel, setPanel] = useState<Panel>(0);
  const key = useRef(newIdempotencyKey());
  const alert = useAlert();
  const navigate = useNavigate();
  const { t } = useTranslation('sales');
  const proceed = (p: Panel) => {
    if (isEmpty()) return alert.error(EMPTY_CART());
    if (p === 2 || p === 3) key.current = newIdempotencyKey();
    setPanel(p);
  };
  const confirm = useConfirm();
  /**
   * Issue 28: a sale leaving a due on the walk-in customer is confirmed first when the company says
   * so (walkin_credit 'confirm'); the due is the server's (previewSale with paid), never computed here.
   */
  const walkinConfirmed = async (body: { clientId?: number | null; cart_no?: number; estimateId?: number; paid?: string }) => {
    if (body.clientId) return true;
    const where = body.estimateId ? { estimateId: body.estimateId } : { cart_no: body.cart_no ?? 1 };
    const p = await api.get<PreviewSaleReply>('/previewSale', { query: { ...where, clientId: 0, paid: body.paid ?? '0' } }).catch(() => null);
    if (!p?.walkin_due || p.walkin_credit !== 'confirm') return true;
    return confirm({ message: t('walkin.confirm', { due: `Rs ${fmt2(p.walkin_due)}` }), confirmLabel: t('walkin.confirmButton') });
  };
  const sell = async (path: string, body: { clientId?: number | null; cart_no?: number; estimateId?: number; paid?: string }) => {
    if (!(await walkinConfirmed(body))) return;
    try {
      const r = await api.post<MakeSaleReply>(path, body, { headers: { 'Idempotency-Key': key.current } });
      if (!r?.saleId) return alert.error(GENERIC_FAILURE());
      r.warnings?.forEach((w) => alert.show(w, 'warning'));
      if (r.invoice_no) alert.success(t('checkout.invoiceMade', { no: r.invoice_no }));
      navigate(`/salesList/bill/print/${r.saleId}`);
      // Straight to this counter's printer, when it has one; the sale is done whatever the printer says.
      const printer = counterPrinterId();
      if (printer) void printToCounter(r.saleId, printer).then((failed) => failed && alert.error(failed));
    } catch (err) {
      alert.error(err instanceof ApiError ? err.message : GENERIC_FAILURE());
    }
  };
  const purchase = async (path: string, body: object) => {
    try {
      const r = await api.post<{ id?: number }[]>(path, body, { headers: { 'Idempotency-Key': key.current } });
      if (!Array.isArray(r) || !r[0]?.id) throw new Error('no id');
      alert.success(t('checkout.purchaseDone'));
      navigate(`/purchase/${r[0].id}`);
    } catch {
      alert.error(t('checkout.purchaseFailed'));
      setPanel(0);
      navigate('/');
    }
  };
  return { panel, setPanel, proceed, sell, purchase };
}
export type Checkout = ReturnType<typeof useCheckout>;

/**
 * The two cards of a counter screen: lines on the left (entry, table, legend), the summary on the
 * right (customer, rows, GST error, actions), and the checkout modal.
 */
export function CounterLayout({
  testId,
  title,
  headExtra,
  entry,
  table,
  legend,
  summaryTestId,
  customer,
  customerTestId,
  searchKey,
  onChooseCustomer,
  rows,
  gst,
  actions,
  checkout,
  total,
  preview,
  hideOfficer,
  onCustomerSaved,
  onSell,
  onPurchase,
  dialog,
}: {
  testId?: string;
  title: ReactNode;
  headExtra: ReactNode;
  entry: ReactNode;
  table: ReactNode;
  legend?: ReactNode;
  summaryTestId?: string;
  customer: Pick<Customer, 'client_id' | 'name'> | null;
  customerTestId: string;
  searchKey: number;
  onChooseCustomer(c: Customer | null): void;
  rows: ReactNode;
  /** The GST figures on screen (null in simple mode): their error refuses the sale. */
  gst: CounterGstSummary | null;
  actions: ReactNode;
  checkout: Checkout;
  /** What the customer owes for this sale (the invoice value in GST mode). */
  total: number;
  preview: PreviewSaleReply | null;
  hideOfficer?: boolean;
  onCustomerSaved(c: Customer): void;
  onSell(v: SellValues): Promise<void>;
  onPurchase(v: PurchaseValues): Promise<void>;
  /** A dialog the screen opens over itself (the discount approval). */
  dialog?: ReactNode;
}) {
  const alert = useAlert();
  const { t } = useTranslation('sales');
  const [typed, setTyped] = useState('');
  return (
    <div className="sl-cart" data-testid={testId}>
      <section className="bk-card sl-card">
        <header className="sl-card__head">
          <h2>{title}</h2>
          {headExtra}
        </header>
        {entry}
        {table}
        {legend}
      </section>
      <section className="bk-card sl-card sl-summary" data-testid={summaryTestId}>
        <header className="sl-card__head">
          <h2>{t('summary.title')}</h2>
          {gst && <span className="sl-badge">{gst.tax_mode === 'composition' ? t('gst.billOfSupply') : t('gst.taxInvoice')}</span>}
        </header>
        <CustomerChooser
          customer={customer}
          searchKey={searchKey}
          testId={customerTestId}
          onChoose={onChooseCustomer}
          onAdd={(text) => {
            setTyped(text);
            checkout.setPanel(1);
          }}
        />
        {rows}
        <GstError gst={gst} />
        <div className="sl-actions">{actions}</div>
      </section>
      <CheckoutModal
        panel={checkout.panel}
        total={total}
        gst={gst}
        preview={preview}
        hideOfficer={hideOfficer}
        typed={typed}
        onClose={() => checkout.setPanel(0)}
        onCustomerSaved={onCustomerSaved}
        onSell={onSell}
        onPurchase={onPurchase}
        onError={(m) => alert.error(m)}
      />
      {dialog}
    </div>
  );
}
