import { i18n, useTranslation } from '@bahi/i18n';
import { SuggestInput, api, useAlert, type Suggestion } from '@bahi/ui-kit';
import { chosenClientId, suggestionText, type Customer } from './customer';

export const MIN_SEARCH = 3;
export const INVALID_CUSTOMER = () => i18n.t('sales:customerSearch.invalid');

const toSuggestion = (c: Customer): Suggestion<Customer> => ({ id: c.client_id, label: suggestionText(c), item: c });

/** Customer search with suggestions 'id : name mobile', from 3 typed characters (spec 000 §5). */
export function CustomerSearch({ onChoose, placeholder }: { onChoose(c: Customer): void; placeholder?: string }) {
  const alert = useAlert();
  const { t } = useTranslation('sales');
  return (
    <SuggestInput<Customer>
      className="cl-search"
      inputClassName="bk-input"
      ariaLabel={t('customerSearch.label')}
      testId="cl-suggest"
      listTestId="customer-suggestions"
      placeholder={placeholder ?? t('customerSearch.placeholder')}
      minChars={MIN_SEARCH}
      delay={200}
      suggest={async (text, signal) => {
        const rows = await api.get<Customer[]>('/getCustomerList/', { query: { text }, signal });
        return (Array.isArray(rows) ? rows : []).map(toSuggestion);
      }}
      // A chosen suggestion's text is not a new search; Enter takes the listed customer it names.
      isChoice={(t) => /^\d+\s*:/.test(t)}
      match={(text, list) => {
        const id = chosenClientId(text, list.map((s) => s.item));
        return list.find((s) => s.id === id);
      }}
      onChoose={(s) => onChoose(s.item)}
      onInvalid={() => alert.error(INVALID_CUSTOMER())}
    />
  );
}
