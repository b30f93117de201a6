import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  api,
  ApiError,
  Button,
  errorMessage,
  formatINR,
  isManager,
  useAlert,
  useConfirm,
  usePageHeader,
  useUser,
  newIdempotencyKey,
} from '@bahi/ui-kit';
import type { Customer } from '../clients/customer';
import type { PurchaseValues } from './CheckoutPanels';
import { LinesTable } from './LinesTable';
import {
  EMPTY_CART,
  entryCode,
  GENERIC_FAILURE,
  PRODUCT_NOT_FOUND,
  type AddReply,
  type CartLine,
  type Suggestion,
  type Summery,
  type UpdateReply,
} from './lines';
import type { GetProductsReply } from '@bahi/contracts';
import { ProductEntry } from './ProductEntry';
import { AmountInput, CheckoutModal, CustomerChooser, type Panel } from './SummaryParts';
import './sales.css';

const CART_NO = 1;
type CartReply = GetProductsReply;

export const KEYS: [string, string][] = [
  ['F2', 'product entry'],
  ['Enter', 'add the product; on an empty entry, Proceed to Sell'],
  ['5*code', 'adds 5'],
  ['↑ ↓', 'pick a suggestion'],
  ['F4', 'customer search'],
  ['F9', 'Proceed to Sell'],
  ['Enter (Sell)', 'confirm the sale'],
  ['Esc', 'close the panel'],
];

/** The keys the counter uses, always on screen. */
export function KeysLegend() {
  return (
    <ul className="sl-keys" aria-label="Keyboard" data-testid="keys">
      {KEYS.map(([k, d]) => (
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
  const [panel, setPanel] = useState<Panel>(0);
  const [searchKey, setSearchKey] = useState(0);
  const [shipping, setShipping] = useState('0');
  const [discount, setDiscount] = useState('0');
  const checkoutKey = useRef(newIdempotencyKey());
  const entryRef = useRef<HTMLInputElement>(null);
  const alert = useAlert();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const user = useUser();
  usePageHeader(<span>Create Sell</span>, []);

  // Replies can overtake each other when a scanner fires codes back to back: each request takes a
  // number and a reply older than one already shown is not shown (the page reloads the cart instead).
  const sent = useRef(0);
  const shown = useRef({ seq: 0, shipping: '0', discount: '0' });
  /** Shows a server summary; false when a newer one is already on screen. */
  const applySummery = (s: Summery, seq = ++sent.current) => {
    if (seq < shown.current.seq) return false;
    const prev = shown.current;
    shown.current = { seq, shipping: String(s.shipping), discount: String(s.discount) };
    setSummery(s);
    // A box the cashier is typing in keeps its text; it is saved on blur.
    setShipping((t) => (t === prev.shipping ? String(s.shipping) : t));
    setDiscount((t) => (t === prev.discount ? String(s.discount) : t));
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
      alert.error(GENERIC_FAILURE);
    }
  }, [alert]);
  useEffect(() => {
    void load();
    entryRef.current?.focus();
  }, [load]);

  const add = async (text: string) => {
    const seq = ++sent.current;
    try {
      const r = await api.get<AddReply>(`/addProductIntoCart/${encodeURIComponent(entryCode(text))}`, {
        query: { cart_no: CART_NO },
      });
      if (!r.length) return alert.error(PRODUCT_NOT_FOUND);
      const [[line], extra] = r;
      extra.warnings.forEach((w) => alert.show(w, 'warning'));
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
      r.warnings.forEach((w) => alert.show(w, 'warning'));
      if (!applySummery(r.summery, seq)) {
        void load();
        return null;
      }
      return r;
    } catch {
      alert.error(failure);
      throw new Error(failure);
    }
  };

  const onQuantity = async (l: CartLine, v: string) => {
    const r = await update('/upQuan/', { sl_no: l.sl_no, quantity: v }, 'could not update quantity');
    if (!r) return;
    setLines((ls) =>
      r.line ? ls.map((x) => (x.sl_no === l.sl_no ? r.line! : x)) : ls.filter((x) => x.sl_no !== l.sl_no),
    );
  };
  const onDiscount = async (l: CartLine, v: string) => {
    const r = await update('/upDisc/', { sl_no: l.sl_no, discount: v }, 'could not update discount');
    if (r?.line) setLines((ls) => ls.map((x) => (x.sl_no === l.sl_no ? r.line! : x)));
  };
  const onRemove = async (l: CartLine) => {
    try {
      await api.get(`/removeProductFromCart/${l.sl_no}`);
      await load();
    } catch {
      alert.error('cannot delete item from cart');
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
    if (!lines.length) return alert.error('Cart is already empty');
    if (!(await confirm('Do you want to clear the current cart?'))) return;
    await api.delete(`/clearCart/${CART_NO}`).catch(() => undefined);
    setCustomer(null);
    setDue(0);
    setSearchKey((k) => k + 1);
    await load();
  };

  const proceed = (p: Panel) => {
    if (!lines.length) return alert.error(EMPTY_CART);
    // A fresh key each time the sell or purchase panel opens; retries and double clicks inside it reuse it.
    if (p === 2 || p === 3) checkoutKey.current = newIdempotencyKey();
    setPanel(p);
  };

  const sell = async (v: { paid: string; dueDate: string; date: string }) => {
    try {
      const r = await api.post<{ saleId?: number; warnings?: string[] }>(
        '/MAKE_SALE',
        { clientId: customer?.client_id ?? 0, cart_no: CART_NO, ...v },
        { headers: { 'Idempotency-Key': checkoutKey.current } },
      );
      if (!r?.saleId) return alert.error(GENERIC_FAILURE);
      r.warnings?.forEach((w) => alert.show(w, 'warning'));
      navigate(`/salesList/bill/print/${r.saleId}`);
    } catch (err) {
      alert.error(err instanceof ApiError ? err.message : GENERIC_FAILURE);
    }
  };

  const purchase = async (v: PurchaseValues) => {
    try {
      const r = await api.post<{ id?: number }[]>('/checkOutPurchase', { ...v, cart_no: CART_NO }, { headers: { 'Idempotency-Key': checkoutKey.current } });
      if (!Array.isArray(r) || !r[0]?.id) throw new Error('no id');
      alert.success('Purchase Success...');
      navigate(`/purchase/${r[0].id}`);
    } catch {
      alert.error('Error Occured please contact admin..');
      setPanel(0);
      navigate('/');
    }
  };

  const saveEstimate = async () => {
    if (!lines.length) return alert.error(EMPTY_CART);
    if (!(await confirm('Do you want to save cart to estimate?'))) return;
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
        proceed(2);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const total = summery.total;
  return (
    <div className="sl-cart">
      <section className="bk-card sl-card">
        <header className="sl-card__head">
          <h2>Cart</h2>
          <Button variant="secondary" onClick={() => void clear()} data-testid="clear-cart">
            Clear Cart
          </Button>
        </header>
        <ProductEntry ref={entryRef} suggestions={suggestions} onAdd={add} onEmptyEnter={() => proceed(2)} />
        <LinesTable lines={lines} onQuantity={onQuantity} onDiscount={onDiscount} onRemove={(l) => void onRemove(l)} />
        <KeysLegend />
      </section>
      <section className="bk-card sl-card sl-summary" data-testid="summary">
        <header className="sl-card__head">
          <h2>Summery</h2>
        </header>
        <CustomerChooser customer={customer} searchKey={searchKey} testId="current-customer" onChoose={(c) => void chooseCustomer(c)} onAdd={() => setPanel(1)} />
        <dl className="sl-rows">
          <dt>Subtotal</dt>
          <dd className="bk-money" data-testid="subtotal">
            {formatINR(summery.subtotal)}
          </dd>
          <dt>Due</dt>
          <dd className="bk-money" data-testid="due">
            {formatINR(due, 0)}
          </dd>
          <dt>
            <label>
              <input
                type="checkbox"
                checked={summery.tax === 1}
                data-testid="tax"
                onChange={(e) => {
                  // Ticked at once; the server's summary (with the tax amount) follows, or it is undone.
                  const before = summery;
                  const tax = e.target.checked ? 1 : 0;
                  setSummery({ ...summery, tax });
                  void update('/upTax/', { tax }, 'could not update tax').catch(() => setSummery(before));
                }}
              />{' '}
              Tax (18%)
            </label>
          </dt>
          <dd className="bk-money" data-testid="tax-amount">
            {formatINR(summery.taxAmount)}
          </dd>
          <dt>Shipping</dt>
          <dd>
            <AmountInput
              label="Shipping"
              value={shipping}
              saved={summery.shipping}
              onChange={setShipping}
              onCommit={() => void update('/upShip/', { shipping }, 'could not update shipping').catch(() => setShipping(String(summery.shipping)))}
            />
          </dd>
          <dt>Discount</dt>
          <dd>
            <AmountInput
              label="Discount"
              value={discount}
              saved={summery.discount}
              onChange={setDiscount}
              onCommit={() => void update('/upSummeryDisc/', { discount }, 'could not update discount').catch(() => setDiscount(String(summery.discount)))}
            />
          </dd>
          <dt className="sl-total">Total</dt>
          <dd className="sl-total bk-money" data-testid="total">
            {formatINR(total)}
          </dd>
        </dl>
        <div className="sl-actions">
          <Button onClick={() => proceed(2)} data-testid="proceed-sell">
            Proceed to Sell
          </Button>
          <Button variant="secondary" onClick={() => void saveEstimate()} data-testid="save-estimate">
            Save to Estimate
          </Button>
          {isManager(user) && (
            <Button variant="secondary" onClick={() => proceed(3)}>
              Proceed to purchase
            </Button>
          )}
        </div>
      </section>
      <CheckoutModal
        panel={panel}
        total={total}
        onClose={() => setPanel(0)}
        onCustomerSaved={(c) => {
          setCustomer(c);
          setDue(0);
          setPanel(0);
        }}
        onSell={sell}
        onPurchase={purchase}
        onError={(m) => alert.error(m)}
      />
    </div>
  );
}
