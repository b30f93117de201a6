import '../i18n';
import CartPage from './CartPage';

/** Create Sell, mounted by the shell at / (an index route: no nested routes of its own). */
export default function CartArea() {
  return <CartPage />;
}
