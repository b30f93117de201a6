import { useEffect, useRef, useState } from 'react';

export interface Suggestion<T> {
  id: number;
  label: string;
  item: T;
}

interface Props<T> {
  label: string;
  placeholder?: string;
  /** Suggestions for the typed text (already filtered); called from `minChars` characters. */
  suggest(text: string, signal: AbortSignal): Promise<Suggestion<T>[]>;
  minChars?: number;
  onChoose(s: Suggestion<T>): void;
  /** Enter on text that is not a listed suggestion. */
  onInvalid(): void;
  /** Typing again after a choice clears it. */
  onClear?(): void;
  initialText?: string;
  testId?: string;
}

/** A text box with a suggestion list; a choice must be one of the listed entries. */
export function SuggestInput<T>({ label, placeholder, suggest, minChars = 0, onChoose, onInvalid, onClear, initialText = '', testId = 'suggest' }: Props<T>) {
  const [text, setText] = useState(initialText);
  const [list, setList] = useState<Suggestion<T>[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const chosen = useRef<string | null>(initialText || null);
  const boxRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => setText(initialText), [initialText]);

  useEffect(() => {
    if (chosen.current !== null && text === chosen.current) return;
    const t = text.trim();
    if (t.length < minChars) {
      setList([]);
      return;
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => {
      suggest(t, ctrl.signal)
        .then((rows) => {
          setList(rows);
          // Only a box the user is typing in opens its list.
          setOpen(document.activeElement === inputRef.current);
          setActive(-1);
        })
        .catch(() => {});
    }, 150);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
    // suggest is an inline function of the caller; the text drives the search.
  }, [text, minChars]);

  useEffect(() => {
    const onDoc = (e: MouseEvent) => boxRef.current && !boxRef.current.contains(e.target as Node) && setOpen(false);
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, []);

  const choose = (s: Suggestion<T>) => {
    chosen.current = s.label;
    setText(s.label);
    setOpen(false);
    onChoose(s);
  };

  const enter = () => {
    if (active >= 0 && list[active]) return choose(list[active]);
    const exact = list.find((s) => s.label === text.trim());
    if (exact) choose(exact);
    else if (chosen.current !== text) onInvalid();
  };

  return (
    <div className="bk-field pm-suggest" ref={boxRef}>
      <label htmlFor={`${testId}-input`}>{label}</label>
      <input
        id={`${testId}-input`}
        type="search"
        role="combobox"
        aria-expanded={open && list.length > 0}
        autoComplete="off"
        placeholder={placeholder}
        value={text}
        onChange={(e) => {
          if (chosen.current !== null) {
            chosen.current = null;
            onClear?.();
          }
          setText(e.target.value);
        }}
        ref={inputRef}
        onFocus={() => {
          if (chosen.current !== null) return;
          if (list.length > 0) setOpen(true);
          else if (minChars === 0) void suggest(text.trim(), new AbortController().signal).then((rows) => { setList(rows); setOpen(true); });
        }}
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
            enter();
          } else if (e.key === 'Escape') setOpen(false);
        }}
      />
      {open && list.length > 0 && (
        <ul className="pm-suggest__list" role="listbox" data-testid={`${testId}-list`}>
          {list.map((s, i) => (
            <li key={s.id} role="option" aria-selected={i === active} onMouseDown={(e) => e.preventDefault()} onClick={() => choose(s)}>
              {s.label}
            </li>
          ))}
        </ul>
      )}
      {open && list.length === 0 && text.trim().length >= minChars && chosen.current === null && (
        <ul className="pm-suggest__list" role="listbox">
          <li className="pm-suggest__empty">No match</li>
        </ul>
      )}
    </div>
  );
}
