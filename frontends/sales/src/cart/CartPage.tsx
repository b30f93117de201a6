import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { api, ApiError, Button, errorMessage, isManager, useAlert, useConfirm, usePageHeader, useUser } from '@bahi/ui-kit';
import type { Customer } from '../clients/customer';
import type { PurchaseValues, SellValues } from './CheckoutPanels';
import { LinesTable } from './LinesTable';
import { DiscountRefused, useDiscountCall } from './discounts';
import { translateServerMessage } from '@bahi/i18n';
import {
  EMPTY_CART,
  entryCode,
  gstRefusal,
  GENERIC_FAILURE,
  type AddReply,
  type CartLine,
  type Suggestion,
  type Summery,
  type UpdateReply,
} from './lines';
import type { GetProductsReply } from '@bahi/contracts';
import { ProductEntry, UnknownCode } from './ProductEntry';
import { CounterLayout, SummaryRows, useAmountBoxes, useCheckout, useSalePreview } from './counter';
import './sales.css';

const CART_NO = 1;
type CartReply = GetProductsReply;

/** The keys the counter uses, always on screen (the keys themselves are not translated). */
export function KeysLegend() {
  const { t } = useTranslation('sales');
  const keys: [string, string][] = [
    ['F2', t('keys.entry')],
    ['Enter', t('keys.enter')],
    ['5*code', t('keys.times')],
    ['↑ ↓', t('keys.pick')],
    ['F4', t('keys.customer')],
    ['F9', t('keys.sell')],
    [`Enter (${t('keys.sellPanel')})`, t('keys.confirm')],
    ['Esc', t('keys.close')],
  ];
  return (
    <ul className="sl-keys" aria-label={t('keys.label')} data-testid="keys">
      {keys.map(([k, d]) => (
        <li key={k}>
          <kbd>{k}</kbd> {d}
        </li>
      ))}
    </ul>
  );
}

/** Create Sell (spec 000 §2 Cart screen). */
export default function CartPage() {
  const [lines, setLines] = useState<CartLine[]>([]);
  const [summery, setSummery] = useState<Summery>({
    tax: 0,
    shipping: 0,
    discount: 0,
    subtotal: 0,
    taxAmount: 0,
    total: 0,
  });
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [due, setDue] = useState(0);
  const [searchKey, setSearchKey] = useState(0);
  const boxes = useAmountBoxes();
  const entryRef = useRef<HTMLInputElement>(null);
  const alert = useAlert();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const user = useUser();
  const checkout = useCheckout(() => !lines.length);
  const discounts = useDiscountCall();
  const [discountError, setDiscountError] = useState<string | null>(null);
  const { t } = useTranslation('sales');
  usePageHeader(<span>{t('cart.header')}</span>, [t]);
  // GST mode: the cart is priced for the walk-in; a chosen customer's invoice comes from /previewSale.
  const preview = useSalePreview(!!summery.gst, { cart_no: CART_NO, clientId: customer?.client_id ?? 0 }, [summery, lines]);
  const gst = summery.gst ? (preview?.gst ?? summery.gst) : null;

  // Replies can overtake each other when a scanner fires codes back to back: each request takes a
  // number and a reply older than one already shown is not shown (the page reloads the cart instead).
  const sent = useRef(0);
  const shown = useRef(0);
  /** Shows a server summary; false when a newer one is already on screen. */
  const applySummery = (s: Summery, seq = ++sent.current) => {
    if (seq < shown.current) return false;
    shown.current = seq;
    setSummery(s);
    boxes.show(s);
    return true;
  };
  const load = useCallback(async () => {
    const seq = ++sent.current;
    try {
      const r = await api.get<CartReply>('/getProducts', { query: { cart_no: CART_NO } });
      if (!applySummery(r.summery, seq)) return;
      setLines(r.cart);
      setSuggestions(r.product_list);
    } catch {
      alert.error(GENERIC_FAILURE());
    }
  }, [alert]);
  useEffect(() => {
    void load();
    entryRef.current?.focus();
  }, [load]);

  // From the reorder list (/?purchase=1&distributor=N): the purchase panel opens once, on the filled cart.
  const [params] = useSearchParams();
  const purchaseOpened = useRef(false);
  useEffect(() => {
    if (purchaseOpened.current || params.get('purchase') !== '1' || !lines.length || !isManager(user)) return;
    purchaseOpened.current = true;
    checkout.proceed(3);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params, lines.length, user]);

  // Issue 32: the stock warning speaks of selling, and this cart may become a purchase (which adds
  // stock): each line's last warning is kept and shown on Proceed to Sell, never for a purchase.
  const stockNotes = useRef(new Map<number, string[]>());
  const noteStock = (sl_no: number, warnings: string[]) => (warnings.length ? stockNotes.current.set(sl_no, warnings) : stockNotes.current.delete(sl_no));

  const [unknown, setUnknown] = useState<string | null>(null);
  const add = async (text: string) => {
    const seq = ++sent.current;
    try {
      const r = await api.get<AddReply>(`/addProductIntoCart/${encodeURIComponent(entryCode(text))}`, {
        query: { cart_no: CART_NO },
      });
      // Issue 28: the code stays in the entry and is named beside it (a manager may add it).
      if (!r.length) {
        setUnknown(entryCode(text));
        return false;
      }
      setUnknown(null);
      const [[line], extra] = r;
      noteStock(line.sl_no, extra.warnings);
      if (extra.summery && !applySummery(extra.summery, seq)) return void load();
      setLines((ls) =>
        ls.some((l) => l.sl_no === line.sl_no) ? ls.map((l) => (l.sl_no === line.sl_no ? line : l)) : [...ls, line],
      );
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  /** Saves one edit; null when a newer reply is already on screen (the cart reloads instead). */
  const update = async (path: string, body: object, failure: string): Promise<UpdateReply | null> => {
    const seq = ++sent.current;
    try {
      const r = await api.post<UpdateReply>(path, { cart_no: CART_NO, ...body });
      if (r.line) noteStock(r.line.sl_no, r.warnings);
      if (!applySummery(r.summery, seq)) {
        void load();
        return null;
      }
      return r;
    } catch (err) {
      // A refused change says why (issue 28: it would leave the discount above the bill).
      const msg = err instanceof ApiError && err.status === 400 ? translateServerMessage(err.message) : failure;
      alert.error(msg);
      throw new Error(msg);
    }
  };
  /** A discount call: refused with a sentence (DiscountRefused, shown beside the field) or approved by a manager. */
  const discountCall = async (path: string, body: object): Promise<UpdateReply | null> => {
    const seq = ++sent.current;
    const r = await discounts.send(path, { cart_no: CART_NO, ...body });
    if (!applySummery(r.summery, seq)) {
      void load();
      return null;
    }
    return r;
  };

  const onQuantity = async (l: CartLine, v: string) => {
    const r = await update('/upQuan/', { sl_no: l.sl_no, quantity: v }, t('cart.quantityFailed'));
    if (!r) return;
    setLines((ls) =>
      r.line ? ls.map((x) => (x.sl_no === l.sl_no ? r.line! : x)) : ls.filter((x) => x.sl_no !== l.sl_no),
    );
  };
  const onDiscount = async (l: CartLine, v: string) => {
    const r = await discountCall('/upDisc/', { sl_no: l.sl_no, discount: v }).catch((err: unknown) => {
      if (!(err instanceof DiscountRefused)) alert.error(t('cart.discountFailed'));
      throw err;
    });
    if (r?.line) setLines((ls) => ls.map((x) => (x.sl_no === l.sl_no ? r.line! : x)));
  };
  const onRemove = async (l: CartLine) => {
    try {
      await api.get(`/removeProductFromCart/${l.sl_no}`);
      await load();
    } catch (err) {
      alert.error(err instanceof ApiError && err.status === 400 ? translateServerMessage(err.message) : t('cart.removeFailed'));
    }
  };

  const chooseCustomer = async (c: Customer | null) => {
    setCustomer(c);
    setSearchKey((k) => k + 1);
    if (!c) return setDue(0);
    try {
      const r = await api.get<{ due: number }>('/getClientDue', { query: { custId: c.client_id } });
      setDue(Number(r.due) || 0);
    } catch {
      setDue(0);
    }
  };

  const clear = async () => {
    if (!lines.length) return alert.error(t('cart.alreadyEmpty'));
    if (!(await confirm(t('cart.confirmClear')))) return;
    await api.delete(`/clearCart/${CART_NO}`).catch(() => undefined);
    setCustomer(null);
    setDue(0);
    setSearchKey((k) => k + 1);
    await load();
  };

  /** Proceed to Sell; in GST mode refused while the invoice cannot be made. */
  const proceedToSell = () => {
    const refusal = lines.length ? gstRefusal(gst) : null;
    if (refusal) return alert.error(refusal);
    lines.forEach((l) => stockNotes.current.get(l.sl_no)?.forEach((w) => alert.show(w, 'warning')));
    checkout.proceed(2);
  };

  const saveEstimate = async () => {
    if (!lines.length) return alert.error(EMPTY_CART());
    if (!(await confirm(t('cart.confirmEstimate')))) return;
    try {
      await api.get('/createEstimate', { query: { cart_no: CART_NO, clientId: customer?.client_id ?? 0 } });
      navigate('/estimateList');
    } catch (err) {
      const data = err instanceof ApiError ? (err.body as { error?: string } | undefined) : undefined;
      alert.error(data?.error ?? errorMessage(err));
    }
  };

  // Keyboard: F2 entry, F4 customer, F9 sell.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'F2') {
        e.preventDefault();
        entryRef.current?.focus();
      } else if (e.key === 'F4') {
        e.preventDefault();
        document.querySelector<HTMLInputElement>('.sl-summary input[type="search"]')?.focus();
      } else if (e.key === 'F9') {
        e.preventDefault();
        proceedToSell();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <CounterLayout
      title={t('cart.title')}
      headExtra={
        <Button variant="secondary" onClick={() => void clear()} data-testid="clear-cart">
          {t('cart.clear')}
        </Button>
      }
      entry={
        <>
          <ProductEntry ref={entryRef} suggestions={suggestions} onAdd={add} onEmptyEnter={proceedToSell} onEdit={() => setUnknown(null)} />
          {unknown !== null && <UnknownCode code={unknown} />}
        </>
      }
      table={<LinesTable lines={lines} gst={gst} onQuantity={onQuantity} onDiscount={onDiscount} onRemove={(l) => void onRemove(l)} />}
      dialog={discounts.dialog}
      legend={<KeysLegend />}
      summaryTestId="summary"
      customer={customer}
      customerTestId="current-customer"
      searchKey={searchKey}
      onChooseCustomer={(c) => void chooseCustomer(c)}
      rows={
        <SummaryRows
          summery={summery}
          gst={gst}
          due={due}
          boxes={boxes}
          onTax={(tax) => {
            // Ticked at once; the server's summary (with the tax amount) follows, or it is undone.
            const before = summery;
            setSummery({ ...summery, tax });
            void update('/upTax/', { tax }, t('cart.taxFailed')).catch(() => setSummery(before));
          }}
          onShipping={() =>
            void update('/upShip/', { shipping: boxes.shipping }, t('cart.shippingFailed')).catch(() => boxes.setShipping(String(summery.shipping)))
          }
          discountError={discountError}
          onDiscount={() =>
            void discountCall('/upSummeryDisc/', { discount: boxes.discount }).then(
              () => setDiscountError(null),
              (err: unknown) => {
                boxes.setDiscount(String(summery.discount));
                if (err instanceof DiscountRefused) setDiscountError(err.message);
                else alert.error(t('cart.discountFailed'));
              },
            )
          }
        />
      }
      gst={gst}
      actions={
        <>
          <Button onClick={proceedToSell} data-testid="proceed-sell">
            {t('counter.proceedSell')}
          </Button>
          <Button variant="secondary" onClick={() => void saveEstimate()} data-testid="save-estimate">
            {t('cart.saveEstimate')}
          </Button>
          {isManager(user) && (
            <Button variant="secondary" onClick={() => checkout.proceed(3)}>
              {t('counter.proceedPurchase')}
            </Button>
          )}
        </>
      }
      checkout={checkout}
      total={summery.total}
      preview={preview}
      onCustomerSaved={(c) => {
        setCustomer(c);
        setDue(0);
        checkout.setPanel(0);
      }}
      onSell={(v: SellValues) => checkout.sell('/MAKE_SALE', { clientId: customer?.client_id ?? 0, cart_no: CART_NO, ...v })}
      onPurchase={(v: PurchaseValues) => checkout.purchase('/checkOutPurchase', { ...v, cart_no: CART_NO })}
    />
  );
}
