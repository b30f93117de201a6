import { Route, Routes, useNavigate } from 'react-router-dom';
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
  return <ImportWizard kind="products" title="Import Products" doneLabel="See the products" onDone={() => navigate('/productItem')} />;
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
