// Pieces of the summary card the cart and the estimate editor share.
import { CustomerSearch } from '../clients/CustomerSearch';
import type { Customer } from '../clients/customer';

/** Customer search, the chosen customer ('Unknown' when none) and the Unknown / Add Customer links. */
export function CustomerChooser({
  customer,
  searchKey,
  testId,
  onChoose,
  onAdd,
}: {
  customer: Pick<Customer, 'client_id' | 'name'> | null;
  /** A new key empties the search box. */
  searchKey: number;
  testId: string;
  onChoose(c: Customer | null): void;
  onAdd(): void;
}) {
  return (
    <div className="sl-customer">
      <CustomerSearch key={searchKey} onChoose={onChoose} />
      <div className="sl-customer__row">
        <span className="sl-customer__name" data-testid={testId}>
          {customer ? `${customer.client_id} : ${customer.name}` : 'Unknown'}
        </span>
        <span className="sl-customer__actions">
          <button type="button" className="sl-link" onClick={() => onChoose(null)}>
            Unknown
          </button>
          <button type="button" className="sl-link" onClick={onAdd}>
            Add Customer
          </button>
        </span>
      </div>
    </div>
  );
}

/** A shipping or discount box: Enter or leaving it sends the value when it changed from `saved`. */
export function AmountInput({ label, value, saved, onChange, onCommit }: { label: string; value: string; saved: number; onChange(v: string): void; onCommit(): void }) {
  return (
    <input
      className="bk-input sl-num"
      inputMode="decimal"
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={() => value !== String(saved) && onCommit()}
      onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
    />
  );
}
