import { Route, Routes } from 'react-router-dom';
import { AddProductPage } from './AddProductPage';
import { LabelPage } from './LabelPage';
import { ProductEditPage } from './ProductEditPage';
import { ProductListPage } from './ProductListPage';
import { StockBookPrintPage } from './StockBookPrintPage';
import './catalogue.css';

/** Mounted by the shell at /productItem/* (routes relative to it). */
export default function ProductItemsApp() {
  return (
    <Routes>
      <Route index element={<ProductListPage />} />
      <Route path="addProducts" element={<AddProductPage />} />
      <Route path="stockBookPrint" element={<StockBookPrintPage />} />
      <Route path=":id" element={<ProductEditPage />} />
      <Route path=":id/label" element={<LabelPage />} />
    </Routes>
  );
}
