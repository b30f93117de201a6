// Pieces of the summary card the cart and the estimate editor share.
import { useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import { Modal } from '@bahi/ui-kit';
import { CustomerForm } from '../clients/CustomerForm';
import { CustomerSearch } from '../clients/CustomerSearch';
import type { Customer } from '../clients/customer';
import type { CounterGstSummary, PreviewSaleReply } from '@bahi/contracts';
import { PurchasePanel, SellPanel, type PurchaseValues, type SellValues } from './CheckoutPanels';

/** What the summary's modal shows: nothing, Add Customer, Sell or Purchase. */
export type Panel = 0 | 1 | 2 | 3;

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
  /** Add Customer, with the text typed in the search (issue 32: it becomes the name or mobile). */
  onAdd(typed: string): void;
}) {
  const { t } = useTranslation('sales');
  const [typed, setTyped] = useState('');
  return (
    <div className="sl-customer" onChange={(e) => setTyped((e.target as HTMLInputElement).value ?? '')}>
      <CustomerSearch key={searchKey} onChoose={onChoose} />
      <div className="sl-customer__row">
        <span className="sl-customer__name" data-testid={testId}>
          {customer ? `${customer.client_id} : ${customer.name}` : t('customer.unknown')}
        </span>
        <span className="sl-customer__actions">
          <button type="button" className="sl-link" onClick={() => onChoose(null)}>
            {t('customer.unknown')}
          </button>
          <button type="button" className="sl-link" onClick={() => onAdd(typed)}>
            {t('customer.add')}
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

/** The summary's modal: add a customer (1), sell (2) or purchase (3). */
export function CheckoutModal({
  panel,
  total,
  gst,
  preview,
  hideOfficer,
  typed,
  onClose,
  onCustomerSaved,
  onSell,
  onPurchase,
  onError,
}: {
  panel: Panel;
  total: number;
  gst?: CounterGstSummary | null;
  preview?: PreviewSaleReply | null;
  hideOfficer?: boolean;
  /** The customer search's text, carried into Add Customer. */
  typed?: string;
  onClose(): void;
  onCustomerSaved(c: Customer): void;
  onSell(v: SellValues): Promise<void>;
  onPurchase(v: PurchaseValues): Promise<void>;
  onError(message: string): void;
}) {
  const { t } = useTranslation('sales');
  return (
    <Modal open={panel !== 0} title={panel === 1 ? t('customer.add') : panel === 2 ? t('sell.title') : t('purchase.title')} onClose={onClose} width={panel === 1 ? 640 : panel === 2 && gst ? 460 : panel === 3 && !hideOfficer ? 620 : 420}>
      {panel === 1 && <CustomerForm typed={typed} onSaved={onCustomerSaved} onCancel={onClose} />}
      {panel === 2 && <SellPanel total={total} gst={gst} preview={preview} onSell={onSell} onError={onError} />}
      {panel === 3 && <PurchasePanel hideOfficer={hideOfficer} cartNo={hideOfficer ? undefined : 1} onPurchase={onPurchase} onError={onError} />}
    </Modal>
  );
}
