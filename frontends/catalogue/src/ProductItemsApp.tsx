import './i18n';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { ImportWizard } from '@bahi/ui-kit';
import { AddProductPage } from './AddProductPage';
import { LabelPage } from './LabelPage';
import { ProductEditPage } from './ProductEditPage';
import { ProductListPage } from './ProductListPage';
import { StockBookPrintPage } from './StockBookPrintPage';
import './catalogue.css';

/** /productItem/import: products from a CSV or XLSX sheet. */
function ProductImportPage() {
  const navigate = useNavigate();
  const { t } = useTranslation('catalogue');
  return <ImportWizard kind="products" title={t('import.title')} doneLabel={t('import.done')} onDone={() => navigate('/productItem')} />;
}

/** Mounted by the shell at /productItem/* (routes relative to it). */
export default function ProductItemsApp() {
  return (
    <Routes>
      <Route index element={<ProductListPage />} />
      <Route path="addProducts" element={<AddProductPage />} />
      <Route path="stockBookPrint" element={<StockBookPrintPage />} />
      <Route path="import" element={<ProductImportPage />} />
      <Route path=":id" element={<ProductEditPage />} />
      <Route path=":id/label" element={<LabelPage />} />
    </Routes>
  );
}
