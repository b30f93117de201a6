import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, Button, formatINR, openDocument, Spinner, useAlert, usePageHeader } from '@bahi/ui-kit';
import { fmt1 } from '../cart/lines';
import '../cart/sales.css';
import type { BillDetailsReply } from '@bahi/contracts';

type Bill = BillDetailsReply;

/** Where the documents service serves the invoice PDF. */
export const invoicePdf = (id: string | number) => `/documents/bill/${id}`;

/** Bill view (spec 000 §2): printable HTML bill; /salesList/bill/print/{id} opens the print dialog. */
export default function BillPage() {
  const { prints = 'show', id = '' } = useParams();
  const [bill, setBill] = useState<Bill | null>(null);
  const [failed, setFailed] = useState(false);
  const alert = useAlert();
  const navigate = useNavigate();
  usePageHeader(<span>Bill #{id}</span>, [id]);

  useEffect(() => {
    api
      .get<Bill>('/getBillDetails', { query: { id } })
      .then(setBill)
      .catch(() => setFailed(true));
  }, [id]);

  useEffect(() => {
    if (bill && prints === 'print') {
      openDocument(invoicePdf(id), { print: true }).catch(() => alert.error('Unable to print the bill, please try again later.'));
    }
  }, [bill, prints]);

  if (failed)
    return (
      <div className="bk-card sl-card">
        <p>Unable to load the bill.</p>
        <Link to="/salesList">Back to Sells Account</Link>
      </div>
    );
  if (!bill) return <Spinner />;
  const s = bill.saleDetails;
  const c = bill.companyDetails;

  const moveToCart = async () => {
    try {
      await api.get('/fillCartFromBill', { query: { cartNo: 1, saleId: id } });
      navigate('/');
    } catch (err) {
      alert.error(`Unable to fill cart please contact support ${(err as Error).message ?? ''}`.trim());
    }
  };

  return (
    <div>
      <div className="sl-toolbar">
        <Button
          variant="secondary"
          onClick={() =>
            openDocument(invoicePdf(id), { download: true }).catch(() =>
              alert.error('Unable to save the bill, please try again later.'),
            )
          }
        >
          Save
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            openDocument(invoicePdf(id), { newTab: true }).catch(() => alert.error('Unable to open in new tab, please try again later.'))
          }
        >
          Open In New Tab
        </Button>
        <Button variant="secondary" onClick={() => navigate('delivery')}>
          Delivery Details
        </Button>
        <Button
          data-testid="print-bill"
          onClick={() =>
            openDocument(invoicePdf(id), { print: true }).catch(() => alert.error('Unable to print the bill, please try again later.'))
          }
        >
          Print
        </Button>
        <Button variant="secondary" onClick={() => void moveToCart()} data-testid="move-to-cart">
          Move to Cart
        </Button>
      </div>
      <article className="sl-bill" data-testid="bill">
        <div className="sl-bill__head">
          <div>
            <h1>{c?.name ?? ''}</h1>
            <div>{c?.add1}</div>
            <div>{c?.add2}</div>
            <div>{[c?.mob1, c?.mob2].filter(Boolean).join(', ')}</div>
            <div>{c?.email}</div>
          </div>
          <div className="sl-bill__meta">
            <h2 style={{ margin: 0 }}>Bill #{s.sale_id}</h2>
            <div>Date {s.date}</div>
            <div>Due date {s.due_date}</div>
          </div>
        </div>
        {!s.walkIn && s.customer && (
          <div className="sl-bill__cust" data-testid="bill-customer">
            <b>{s.customer.name}</b> ({s.customer.client_id}) · +91 {s.customer.mobile_no}
            <br />
            {[
              s.customer.address_line_1,
              s.customer.address_line_2,
              s.customer.city_or_district,
              s.customer.state,
              s.customer.postal_code,
            ]
              .filter(Boolean)
              .join(', ')}
          </div>
        )}
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>Product</th>
              <th>HSN</th>
              <th className="r">Qty</th>
              <th className="r">Rate</th>
              <th className="r">Disc.</th>
              <th className="r">Amount</th>
            </tr>
          </thead>
          <tbody>
            {bill.soldProducts.map((p, i) => (
              <tr key={p.sl_no}>
                <td>{i + 1}</td>
                <td>{p.product_name}</td>
                <td>{p.hsn_code}</td>
                <td className="r">
                  {p.quantity}
                  {p.per_peice_quantity !== 1 ? ` × ${p.per_peice_quantity}` : ''} {p.unit}
                </td>
                <td className="r nowrap">{formatINR(p.rate)}</td>
                <td className="r nowrap">{formatINR(p.disc)}</td>
                <td className="r nowrap">{fmt1(p.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="sl-bill__totals" data-testid="bill-totals">
          <span>Subtotal</span>
          <span className="r" data-testid="bill-subtotal">
            {formatINR(bill.subtotal)}
          </span>
          {s.tax === 1 && (
            <>
              <span>Tax (18%)</span>
              <span className="r" data-testid="bill-tax">
                {formatINR(s.taxAmount)}
              </span>
            </>
          )}
          <span>Shipping</span>
          <span className="r" data-testid="bill-shipping">
            {formatINR(s.shipping)}
          </span>
          <span>Discount</span>
          <span className="r" data-testid="bill-discount">
            -{formatINR(s.summery_discount)}
          </span>
          <span>Amount</span>
          <span className="r" data-testid="bill-amount">
            {formatINR(s.amount)}
          </span>
          {!s.walkIn && (
            <>
              <span>Previous due</span>
              <span className="r" data-testid="bill-previous-due">
                {formatINR(bill.previousDue)}
              </span>
            </>
          )}
          <span className="grand">Total</span>
          <span className="grand r" data-testid="bill-total">
            {formatINR(s.total)}
          </span>
          <span>Paid</span>
          <span className="r" data-testid="bill-paid">
            {formatINR(s.paid)}
          </span>
          <span className="grand">Total due</span>
          {/* Due is shown rounded to rupees (spec 000 §9). */}
          <span className="grand r" data-testid="bill-due">
            {formatINR(s.due, 0)}
          </span>
        </div>
      </article>
    </div>
  );
}
