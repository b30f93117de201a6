import { forwardRef, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { useNavigate } from 'react-router-dom';
import { api, Button, formatINR, isManager, useUser } from '@bahi/ui-kit';
import type { Suggestion } from './lines';

const MAX_SHOWN = 8;
const localMatches = (suggestions: Suggestion[], q: string) =>
  suggestions
    .filter((s) => String(s.product_id).startsWith(q) || s.product_name.toLowerCase().includes(q))
    .slice(0, MAX_SHOWN);

/**
 * The product entry: suggestions (id, name, stock, MRP) as you type; Enter adds what is typed or
 * scanned (a barcode scanner types the code and Enter); Enter on empty text proceeds to sell.
 */
export const ProductEntry = forwardRef<
  HTMLInputElement,
  /** onAdd answers false when nothing was found: the text goes back into the entry. onEdit: the text was changed. */
  { suggestions: Suggestion[]; onAdd(text: string): Promise<boolean | void>; onEmptyEnter(): void; onEdit?(): void }
>(function ProductEntry({ suggestions, onAdd, onEmptyEnter, onEdit }, ref) {
  const { t } = useTranslation('sales');
  const [text, setText] = useState('');
  const [active, setActive] = useState(-1);
  const [remote, setRemote] = useState<{ text: string; list: Suggestion[] } | null>(null);
  const q = text.trim().toLowerCase();
  // Quantity prefixes (5*12) and long digit runs (barcodes being scanned) are not searches.
  const searching = q.length > 0 && !/^\d+(\.\d+)?\s*[*xX]/.test(q) && !/^\d{6,}$/.test(q);

  // The page holds the first suggestions only; a big catalogue is searched on the server.
  useEffect(() => {
    if (!searching || q.length < 2 || localMatches(suggestions, q).length >= MAX_SHOWN) return;
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      api
        .get<{ product_list: Suggestion[] }>('/getProducts', { query: { cart_no: 1, text: q }, signal: ctrl.signal })
        .then((r) => setRemote({ text: q, list: r.product_list ?? [] }))
        .catch(() => undefined);
    }, 250);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [q, searching, suggestions]);

  const matches = useMemo(() => {
    if (!searching) return [];
    const local = localMatches(suggestions, q);
    if (remote?.text !== q) return local;
    const seen = new Set(local.map((s) => s.product_id));
    return [...local, ...remote.list.filter((s) => !seen.has(s.product_id))].slice(0, MAX_SHOWN);
  }, [q, searching, suggestions, remote]);

  const submit = async (value: string) => {
    setText('');
    setActive(-1);
    // Unless the cashier typed on meanwhile.
    if ((await onAdd(value)) === false) setText((now) => (now === '' ? value : now));
  };
  return (
    <div className="sl-entry">
      <input
        ref={ref}
        className="bk-input"
        data-testid="product-entry"
        aria-label={t('entry.label')}
        role="combobox"
        aria-expanded={matches.length > 0}
        aria-controls="sl-suggest"
        placeholder={t('entry.placeholder')}
        autoComplete="off"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(-1);
          onEdit?.();
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, matches.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, -1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            const chosen = active >= 0 ? matches[active] : undefined;
            if (chosen) void submit(`${chosen.product_id} : ${chosen.product_name}`);
            else if (!text.trim()) onEmptyEnter();
            else void submit(text);
          } else if (e.key === 'Escape') setText('');
        }}
      />
      {matches.length > 0 && (
        <ul className="sl-suggest" id="sl-suggest" role="listbox" data-testid="product-suggestions">
          <li className="sl-suggest__head" aria-hidden="true">
            <span>{t('entry.id')}</span>
            <span>{t('entry.name')}</span>
            <span className="r">{t('lines.stock')}</span>
            <span className="r">{t('entry.mrp')}</span>
          </li>
          {matches.map((s, i) => (
            <li
              key={s.product_id}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                void submit(`${s.product_id} : ${s.product_name}`);
              }}
            >
              <b>{s.product_id}</b>
              <span className="sl-suggest__name">{s.product_name}</span>
              <span className={`r ${Number(s.stock) <= 0 ? 'sl-warn' : ''}`}>{String(Number(s.stock))}</span>
              <span className="r">{formatINR(s.mrp)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

/**
 * A code that matches no product (issue 28): named beside the entry, which keeps it; a manager may
 * open Add Product with the code as its barcode.
 */
export function UnknownCode({ code }: { code: string }) {
  const { t } = useTranslation('sales');
  const user = useUser();
  const navigate = useNavigate();
  return (
    <div className="sl-unknown" role="alert" data-testid="unknown-code">
      <span>{t('cart.noProductWithCode', { code })}</span>
      {isManager(user) && (
        <Button variant="secondary" data-testid="add-with-barcode" onClick={() => navigate(`/productItem/addProducts?barcode=${encodeURIComponent(code)}`)}>
          {t('cart.addWithBarcode')}
        </Button>
      )}
    </div>
  );
}
