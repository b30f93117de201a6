import { useNavigate } from 'react-router-dom';
import { Button, Card } from '@bahi/ui-kit';
import './purchase.css';

/** /purchaseProducts: purchases are made from the cart's 'Proceed to purchase' panel; this points there. */
export default function PurchaseProductsArea() {
  const navigate = useNavigate();
  return (
    <Card title="Purchase products">
      <p className="bk-muted">Put the products you bought in the cart, then press Proceed to purchase and enter the bill number, distributor and officer.</p>
      <div className="pu-actions">
        <Button onClick={() => navigate('/')}>Go to the cart</Button>
        <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
          Purchase Account
        </Button>
      </div>
    </Card>
  );
}
