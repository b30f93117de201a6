import { useTranslation } from '@bahi/i18n';

/**
 * The sidebar's labels and the areas' titles (remoteAreas.ts keeps them in English, as the spec
 * names them) in the active language. A label this map doesn't know yet shows as written.
 */
export function useAreaLabel(): (english: string) => string {
  const { t } = useTranslation('shell');
  const labels: Record<string, string> = {
    Cart: t('nav.cart'),
    'View Products': t('nav.viewProducts'),
    'Purchase Account': t('nav.purchaseAccount'),
    Distributors: t('nav.distributors'),
    'Give Payment': t('nav.givePayment'),
    'Product Details': t('nav.productDetails'),
    Categories: t('nav.categories'),
    Estimates: t('nav.estimates'),
    'Sells Account': t('nav.sellsAccount'),
    'Customer Details': t('nav.customerDetails'),
    'Receive Payment': t('nav.receivePayment'),
    Dashboard: t('nav.dashboard'),
    Reports: t('nav.reports'),
    'Reorder List': t('nav.reorderList'),
    Expenses: t('nav.expenses'),
    'Opening Balances': t('nav.openingBalances'),
    Register: t('nav.register'),
    'Create Sell': t('nav.createSell'),
    Purchase: t('nav.purchase'),
    Setting: t('nav.setting'),
  };
  return (english) => labels[english] ?? english;
}
