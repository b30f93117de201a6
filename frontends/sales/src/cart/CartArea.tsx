import { Route, Routes } from 'react-router-dom';
import CartPage from './CartPage';

/** Create Sell, mounted by the shell at / . */
export default function CartArea() {
  return (
    <Routes>
      <Route index element={<CartPage />} />
      <Route path="*" element={<CartPage />} />
    </Routes>
  );
}
