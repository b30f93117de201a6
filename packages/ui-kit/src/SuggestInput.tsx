import { useEffect, useRef, useState } from 'react';

export interface Suggestion<T> {
  id: number;
  label: string;
  item: T;
}

export interface SuggestInputProps<T> {
  /** A visible label; without it give `ariaLabel`. */
  label?: string;
  ariaLabel?: string;
  placeholder?: string;
  /** Suggestions for the typed text (already filtered); called from `minChars` characters. */
  suggest(text: string, signal: AbortSignal): Promise<Suggestion<T>[]>;
  minChars?: number;
  /** Typing pause before asking, in ms. */
  delay?: number;
  onChoose(s: Suggestion<T>): void;
  /** Enter on text that is not a listed suggestion. */
  onInvalid(): void;
  /** Typing again after a choice clears it. */
  onClear?(): void;
  /** The listed suggestion Enter picks for the typed text (default: the one with exactly that label). */
  match?(text: string, list: Suggestion<T>[]): Suggestion<T> | undefined;
  /** Text that names a choice already and is no new search (e.g. 'id : name'). */
  isChoice?(text: string): boolean;
  /** Shown in the open list when nothing matches; nothing when absent. */
  emptyText?: string;
  initialText?: string;
  testId?: string;
  listTestId?: string;
  className?: string;
  inputClassName?: string;
}

const exactLabel = <T,>(text: string, list: Suggestion<T>[]) => list.find((s) => s.label === text.trim());

/** A text box with a suggestion list; a choice must be one of the listed entries. */
export function SuggestInput<T>({
  label,
  ariaLabel,
  placeholder,
  suggest,
  minChars = 0,
  delay = 150,
  onChoose,
  onInvalid,
  onClear,
  match = exactLabel,
  isChoice,
  emptyText,
  initialText = '',
  testId = 'suggest',
  listTestId = `${testId}-list`,
  className = 'bk-field',
  inputClassName,
}: SuggestInputProps<T>) {
  const [text, setText] = useState(initialText);
  const [list, setList] = useState<Suggestion<T>[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const chosen = useRef<string | null>(initialText || null);
  const boxRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = `${testId}-options`;

  useEffect(() => setText(initialText), [initialText]);

  useEffect(() => {
    if (chosen.current !== null && text === chosen.current) return;
    const t = text.trim();
    if (t.length < minChars) {
      setList([]);
      return;
    }
    if (isChoice?.(t)) return;
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
    }, delay);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
    // suggest is an inline function of the caller; the text drives the search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
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
    const found = match(text, list);
    if (found) choose(found);
    else if (chosen.current !== text) onInvalid();
  };

  return (
    <div className={`${className} bk-suggest`} ref={boxRef}>
      {label && <label htmlFor={`${testId}-input`}>{label}</label>}
      <input
        id={`${testId}-input`}
        className={inputClassName}
        type="search"
        role="combobox"
        aria-expanded={open && list.length > 0}
        aria-controls={listId}
        aria-label={label ? undefined : ariaLabel}
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
          else if (minChars === 0)
            void suggest(text.trim(), new AbortController().signal).then((rows) => {
              setList(rows);
              setOpen(true);
            });
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
        <ul className="bk-suggest__list" id={listId} role="listbox" data-testid={listTestId}>
          {list.map((s, i) => (
            <li key={s.id} role="option" aria-selected={i === active} onMouseDown={(e) => e.preventDefault()} onClick={() => choose(s)}>
              {s.label}
            </li>
          ))}
        </ul>
      )}
      {emptyText && open && list.length === 0 && text.trim().length >= minChars && chosen.current === null && (
        <ul className="bk-suggest__list" role="listbox">
          <li className="bk-suggest__empty">{emptyText}</li>
        </ul>
      )}
    </div>
  );
}
