import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, Button, formatINR, openDocument, ShareButton, Spinner, useAlert, usePageHeader } from '@bahi/ui-kit';
import { fmt1 } from '../cart/lines';
import '../cart/sales.css';
import type { BillDetailsReply } from '@bahi/contracts';
import { BillReturns } from './BillReturns';
import { CancelBill } from './CancelBill';
import { ReturnItems } from './ReturnItems';
import { PrintMenu } from './PrintMenu';

type Bill = BillDetailsReply;

/** Where the documents service serves the invoice PDF. */
export const invoicePdf = (id: string | number) => `/documents/bill/${id}`;

type Sale = Bill['saleDetails'];

/** What a composition dealer's bill of supply must say (as the printed one does). */
const COMPOSITION_LINE = 'Composition taxable person, not eligible to collect tax on supplies';

type Head = 'cgst' | 'sgst' | 'igst';

/**
 * The bill's lines. A tax invoice (`gst`) replaces the Amount column with the taxable value, the
 * GST % and the tax of each head (CGST and SGST/UTGST, or IGST; none on a bill of supply).
 */
function BillLines({ bill, gst }: { bill: Bill; gst: boolean }) {
  const s = bill.saleDetails;
  const supply = s.document === 'bill-of-supply';
  const heads: readonly Head[] = !gst || supply ? [] : s.inter_state ? ['igst'] : ['cgst', 'sgst'];
  const headName = (h: Head) => (h === 'sgst' ? (s.state_tax_name ?? 'SGST') : h.toUpperCase());
  return (
    <table data-testid={gst ? 'bill-gst-lines' : undefined}>
      <thead>
        <tr>
          <th>#</th>
          <th>Product</th>
          <th>HSN</th>
          <th className="r">Qty</th>
          <th className="r">Rate</th>
          <th className="r">Disc.</th>
          {gst ? (
            <>
              <th className="r">{supply ? 'Value' : 'Taxable'}</th>
              {!supply && <th className="r">GST %</th>}
            </>
          ) : (
            <th className="r">Amount</th>
          )}
          {heads.map((h) => (
            <th key={h} className="r">
              {headName(h)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {bill.soldProducts.map((p, i) => (
          <tr key={p.sl_no} data-testid={gst ? `bill-line-${p.product_id}` : undefined}>
            <td>{i + 1}</td>
            <td>{p.product_name}</td>
            <td>{p.hsn_code}</td>
            <td className="r">
              {p.quantity}
              {p.per_peice_quantity !== 1 ? ` × ${p.per_peice_quantity}` : ''} {p.unit}
            </td>
            <td className="r nowrap">{formatINR(p.rate)}</td>
            <td className="r nowrap">{formatINR(p.disc)}</td>
            {gst ? (
              <>
                <td className="r nowrap" data-testid="bill-line-taxable">
                  {formatINR(p.taxable_value)}
                </td>
                {!supply && <td className="r">{p.gst_rate}%</td>}
              </>
            ) : (
              <td className="r nowrap">{fmt1(p.amount)}</td>
            )}
            {heads.map((h) => (
              <td key={h} className="r nowrap" data-testid={`bill-line-${h}`}>
                {formatINR(p[h])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SimpleTotals({ bill }: { bill: Bill }) {
  const s = bill.saleDetails;
  return (
    <>
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
    </>
  );
}

/** A tax invoice's totals: taxable value (shipping less discount is inside it), each head, round off, invoice value. */
function GstTotals({ s }: { s: Sale }) {
  const row = (label: string, value: number | null | undefined, id: string, sign = false) => (
    <>
      <span>{label}</span>
      <span className="r" data-testid={id}>
        {sign && Number(value) > 0 ? '+' : ''}
        {formatINR(value)}
      </span>
    </>
  );
  return (
    <>
      {(s.shipping > 0 || s.summery_discount > 0) && (
        <span className="sl-bill__note" data-testid="bill-shipping-note">
          Taxable value includes shipping {formatINR(s.shipping)} less discount {formatINR(s.summery_discount)}
        </span>
      )}
      {row('Taxable value', s.taxable_total, 'bill-taxable')}
      {s.document !== 'bill-of-supply' &&
        (s.inter_state ? (
          row('IGST', s.igst_total, 'bill-igst')
        ) : (
          <>
            {row('CGST', s.cgst_total, 'bill-cgst')}
            {row(s.state_tax_name ?? 'SGST', s.sgst_total, 'bill-sgst')}
          </>
        ))}
      {row('Round off', s.round_off, 'bill-round-off', true)}
      <span className="grand">{s.document === 'bill-of-supply' ? 'Bill value' : 'Invoice value'}</span>
      <span className="grand r" data-testid="bill-invoice-value">
        {formatINR(s.invoice_value)}
      </span>
    </>
  );
}

/** Bill view (spec 000 §2): printable HTML bill; /salesList/bill/print/{id} opens the print dialog. */
export default function BillPage() {
  const { prints = 'show', id = '' } = useParams();
  const [bill, setBill] = useState<Bill | null>(null);
  const [failed, setFailed] = useState(false);
  // Bumped after a return or a cancel: the bill is read again (kept on screen meanwhile).
  const [version, setVersion] = useState(0);
  const alert = useAlert();
  const navigate = useNavigate();
  usePageHeader(<span>Bill #{id}</span>, [id]);

  useEffect(() => {
    api
      .get<Bill>('/getBillDetails', { query: { id } })
      .then(setBill)
      .catch(() => setFailed(true));
  }, [id, version]);

  // Printed once per bill: reading it again after a return or a cancel must not print again.
  const printed = useRef('');
  useEffect(() => {
    if (bill && prints === 'print' && printed.current !== id) {
      printed.current = id;
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
  // Sales made in GST mode carry their frozen invoice; simple mode's bill stays as it was.
  const gst = !!s.tax_mode && s.tax_mode !== 'simple' && !!s.invoice_no;

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
        <PrintMenu saleId={id} defaultFormat={c?.bill_format} gst={gst} />
        <ShareButton kind="bill" id={id} />
        <Button variant="secondary" onClick={() => void moveToCart()} data-testid="move-to-cart">
          Move to Cart
        </Button>
        <ReturnItems bill={bill} onReturned={() => setVersion((v) => v + 1)} />
        <CancelBill bill={bill} onCancelled={() => setVersion((v) => v + 1)} />
      </div>
      <BillReturns bill={bill} />
      <article className={bill.cancelled ? 'sl-bill sl-bill--cancelled' : 'sl-bill'} data-testid="bill">
        <div className="sl-bill__head">
          <div>
            <h1>{c?.name ?? ''}</h1>
            <div>{c?.add1}</div>
            <div>{c?.add2}</div>
            <div>{[c?.mob1, c?.mob2].filter(Boolean).join(', ')}</div>
            <div>{c?.email}</div>
            {gst && c?.gstin && <div data-testid="bill-company-gstin">GSTIN {c.gstin}</div>}
          </div>
          <div className="sl-bill__meta">
            {gst ? (
              <>
                <h2 style={{ margin: 0 }} data-testid="bill-document">
                  {s.document === 'bill-of-supply' ? 'Bill of Supply' : 'Tax Invoice'}
                </h2>
                <div>
                  Invoice No <b data-testid="bill-invoice-no">{s.invoice_no}</b>
                </div>
                <div className="sl-muted">Bill #{s.sale_id}</div>
              </>
            ) : (
              <h2 style={{ margin: 0 }}>Bill #{s.sale_id}</h2>
            )}
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
            {gst && s.customer.gstin && (
              <>
                <br />
                GSTIN <span data-testid="bill-customer-gstin">{s.customer.gstin}</span>
              </>
            )}
          </div>
        )}
        {gst && (
          <div className="sl-bill__pos" data-testid="bill-place-of-supply">
            Place of supply: {s.place_of_supply_name} ({s.place_of_supply})
            {s.document === 'bill-of-supply' && <div data-testid="bill-composition">{COMPOSITION_LINE}</div>}
          </div>
        )}
        <BillLines bill={bill} gst={gst} />
        <div className="sl-bill__totals" data-testid="bill-totals">
          {gst ? <GstTotals s={s} /> : <SimpleTotals bill={bill} />}
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
