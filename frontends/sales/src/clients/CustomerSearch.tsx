import { useEffect, useRef, useState } from 'react';
import { api, useAlert } from '@bahi/ui-kit';
import { chosenClientId, suggestionText, type Customer } from './customer';

export const MIN_SEARCH = 3;
export const INVALID_CUSTOMER = 'Select a valid Customer from the list';

/** Customer search with suggestions 'id : name mobile', from 3 typed characters (spec 000 §5). */
export function CustomerSearch({ onChoose, placeholder = 'Search customer by name or mobile' }: { onChoose(c: Customer): void; placeholder?: string }) {
  const [text, setText] = useState('');
  const [list, setList] = useState<Customer[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const alert = useAlert();
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const t = text.trim();
    // A chosen suggestion's text is not a new search.
    if (t.length < MIN_SEARCH || /^\d+\s*:/.test(t)) {
      if (t.length < MIN_SEARCH) setList([]);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      api
        .get<Customer[]>('/getCustomerList/', { query: { text: t }, signal: ctrl.signal })
        .then((rows) => {
          setList(Array.isArray(rows) ? rows : []);
          setOpen(true);
          setActive(-1);
        })
        .catch(() => {});
    }, 200);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [text]);

  useEffect(() => {
    const onDoc = (e: MouseEvent) => boxRef.current && !boxRef.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, []);

  const choose = (c: Customer) => {
    setText(suggestionText(c));
    setOpen(false);
    onChoose(c);
  };

  const submit = () => {
    if (active >= 0 && list[active]) return choose(list[active]);
    const id = chosenClientId(text, list);
    const c = list.find((x) => x.client_id === id);
    if (c) choose(c);
    else alert.error(INVALID_CUSTOMER);
  };

  return (
    <div className="cl-search" ref={boxRef}>
      <input
        className="bk-input"
        type="search"
        role="combobox"
        aria-expanded={open && list.length > 0}
        aria-controls="cl-suggest"
        aria-label="Search customer"
        placeholder={placeholder}
        value={text}
        autoComplete="off"
        onChange={(e) => setText(e.target.value)}
        onFocus={() => list.length > 0 && setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
            setActive((a) => Math.min(a + 1, list.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') setOpen(false);
        }}
      />
      {open && list.length > 0 && (
        <ul className="cl-suggest" id="cl-suggest" role="listbox" data-testid="customer-suggestions">
          {list.map((c, i) => (
            <li key={c.client_id} role="option" aria-selected={i === active} onMouseDown={(e) => e.preventDefault()} onClick={() => choose(c)}>
              {suggestionText(c)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
