import { forwardRef, useMemo, useState } from 'react';
import type { Suggestion } from './lines';

/**
 * The product entry: suggestions (id, name, stock, MRP) as you type; Enter adds what is typed or
 * scanned (a barcode scanner types the code and Enter); Enter on empty text proceeds to sell.
 */
export const ProductEntry = forwardRef<HTMLInputElement, { suggestions: Suggestion[]; onAdd(text: string): Promise<void>; onEmptyEnter(): void }>(
  function ProductEntry({ suggestions, onAdd, onEmptyEnter }, ref) {
    const [text, setText] = useState('');
    const [active, setActive] = useState(-1);
    const matches = useMemo(() => {
      const t = text.trim().toLowerCase();
      if (!t || /^\d+(\.\d+)?\*/.test(t)) return [];
      return suggestions.filter((s) => String(s.product_id).startsWith(t) || s.product_name.toLowerCase().includes(t)).slice(0, 8);
    }, [text, suggestions]);
    const submit = async (value: string) => {
      setText('');
      setActive(-1);
      await onAdd(value);
    };
    return (
      <div className="sl-entry">
        <input
          ref={ref}
          className="bk-input"
          data-testid="product-entry"
          aria-label="Product id, barcode or name"
          placeholder="Scan barcode or type id (5*12 adds 5) — Enter"
          autoComplete="off"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(-1);
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
          <ul className="sl-suggest" role="listbox">
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
                <b>{s.product_id}</b> {s.product_name} <span className="sl-muted">stock {String(s.stock)} · MRP ₹{String(s.mrp)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    );
  },
);
