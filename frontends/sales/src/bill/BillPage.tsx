import { Fragment, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { i18n, useTranslation } from '@bahi/i18n';
import { api, Button, formatINR, openDocument, ShareButton, Spinner, useAlert, usePageHeader } from '@bahi/ui-kit';
import { fmt1 } from '../cart/lines';
import '../cart/sales.css';
import './ewaybill.css';
import type { BillDetailsReply } from '@bahi/contracts';
import { isBillOfSupply } from '@bahi/gst';
import { BillReturns } from './BillReturns';
import { CancelBill } from './CancelBill';
import { ReturnItems } from './ReturnItems';
import { CounterPrinter, NewSaleButton } from './CounterPrinter';
import { PrintMenu } from './PrintMenu';

type Bill = BillDetailsReply;

/** Where the documents service serves the invoice PDF. */
export const invoicePdf = (id: string | number) => `/documents/bill/${id}`;

type Head = 'cgst' | 'sgst' | 'igst';

/** A composition bill, or a GST bill of only nil-rated, exempt or non-GST lines (Rule 49): the one rule of @bahi/gst. */
const billOfSupply = (bill: Bill) =>
  isBillOfSupply(
    bill.saleDetails.document ?? '',
    bill.soldProducts.map((p) => ({ supply_type: p.supply_type, gst_rate: p.gst_rate ?? 0 })),
  );

/**
 * The bill's lines. A tax invoice (`gst`) replaces the Amount column with the taxable value, the
 * GST % and the tax of each head (CGST and SGST/UTGST, or IGST; none on a bill of supply).
 */
function BillLines({ bill, gst }: { bill: Bill; gst: boolean }) {
  const s = bill.saleDetails;
  const supply = billOfSupply(bill);
  const heads: readonly Head[] = !gst || supply ? [] : s.inter_state ? ['igst'] : ['cgst', 'sgst'];
  const { t } = useTranslation('sales');
  const headName = (h: Head) => (h === 'sgst' ? (s.state_tax_name ?? t('gst.sgst')) : h === 'igst' ? t('gst.igst') : t('gst.cgst'));
  return (
    <table data-testid={gst ? 'bill-gst-lines' : undefined}>
      <thead>
        <tr>
          <th>#</th>
          <th>{t('lines.product')}</th>
          <th>{t('bill.hsn')}</th>
          <th className="r">{t('lines.qty')}</th>
          <th className="r">{t('lines.rate')}</th>
          <th className="r">{t('lines.disc')}</th>
          {gst ? (
            <>
              <th className="r">{supply ? t('bill.value') : t('bill.taxable')}</th>
              {!supply && <th className="r">{t('bill.gstPercent')}</th>}
            </>
          ) : (
            <th className="r">{t('lines.amount')}</th>
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
            <td data-label={t('bill.hsn')}>{p.hsn_code}</td>
            <td className="r" data-label={t('lines.qty')}>
              {p.quantity}
              {p.per_peice_quantity !== 1 ? ` × ${p.per_peice_quantity}` : ''} {p.unit}
            </td>
            <td className="r nowrap" data-label={t('lines.rate')}>
              {formatINR(p.rate)}
            </td>
            <td className="r nowrap" data-label={t('lines.disc')}>
              {formatINR(p.disc)}
            </td>
            {gst ? (
              <>
                <td className="r nowrap" data-testid="bill-line-taxable" data-label={supply ? t('bill.value') : t('bill.taxable')}>
                  {formatINR(p.taxable_value)}
                </td>
                {!supply && (
                  <td className="r" data-label={t('bill.gstPercent')}>
                    {p.gst_rate}%
                  </td>
                )}
              </>
            ) : (
              <td className="r nowrap" data-label={t('lines.amount')}>
                {fmt1(p.amount)}
              </td>
            )}
            {heads.map((h) => (
              <td key={h} className="r nowrap" data-testid={`bill-line-${h}`} data-label={headName(h)}>
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
  const { t } = useTranslation('sales');
  return (
    <>
      <span>{t('summary.subtotal')}</span>
      <span className="r" data-testid="bill-subtotal">
        {formatINR(bill.subtotal)}
      </span>
      {s.tax === 1 && (
        <>
          <span>{t('summary.tax')}</span>
          <span className="r" data-testid="bill-tax">
            {formatINR(s.taxAmount)}
          </span>
        </>
      )}
      <span>{t('summary.shipping')}</span>
      <span className="r" data-testid="bill-shipping">
        {formatINR(s.shipping)}
      </span>
      <span>{t('summary.discount')}</span>
      <span className="r" data-testid="bill-discount">
        -{formatINR(s.summery_discount)}
      </span>
      <span>{t('lines.amount')}</span>
      <span className="r" data-testid="bill-amount">
        {formatINR(s.amount)}
      </span>
    </>
  );
}

/** A tax invoice's totals: taxable value (shipping less discount is inside it), each head, round off, invoice value. */
function GstTotals({ bill }: { bill: Bill }) {
  const s = bill.saleDetails;
  const { t } = useTranslation('sales');
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
          {t('bill.shippingNote', { shipping: formatINR(s.shipping), discount: formatINR(s.summery_discount) })}
        </span>
      )}
      {row(t('gst.taxableValue'), s.taxable_total, 'bill-taxable')}
      {!billOfSupply(bill) &&
        (s.inter_state ? (
          row(t('gst.igst'), s.igst_total, 'bill-igst')
        ) : (
          <>
            {row(t('gst.cgst'), s.cgst_total, 'bill-cgst')}
            {row(s.state_tax_name ?? t('gst.sgst'), s.sgst_total, 'bill-sgst')}
          </>
        ))}
      {row(t('gst.roundOff'), s.round_off, 'bill-round-off', true)}
      <span className="grand">{billOfSupply(bill) ? t('gst.billValue') : t('gst.invoiceValue')}</span>
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
  const { t } = useTranslation('sales');
  const { t: tu } = useTranslation('ui');
  usePageHeader(<span>{t('bill.header', { no: id })}</span>, [id, t]);

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
      openDocument(invoicePdf(id), { print: true }).catch(() => alert.error(i18n.t('sales:bill.printFailed')));
    }
  }, [bill, prints]);

  if (failed)
    return (
      <div className="bk-card sl-card">
        <p>{t('bill.loadFailed')}</p>
        <Link to="/salesList">{t('bill.back')}</Link>
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
      alert.error(t('bill.fillFailed', { reason: (err as Error).message ?? '' }).trim());
    }
  };

  return (
    <div>
      <div className="sl-toolbar">
        <NewSaleButton />
        <Button
          variant="secondary"
          onClick={() =>
            openDocument(invoicePdf(id), { download: true }).catch(() =>
              alert.error(t('bill.saveFailed')),
            )
          }
        >
          {t('common.save')}
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            openDocument(invoicePdf(id), { newTab: true }).catch(() => alert.error(t('bill.tabFailed')))
          }
        >
          {t('bill.newTab')}
        </Button>
        <Button variant="secondary" onClick={() => navigate('delivery')}>
          {t('delivery.title')}
        </Button>
        <PrintMenu saleId={id} defaultFormat={c?.bill_format} gst={gst} />
        <CounterPrinter saleId={id} />
        <ShareButton kind="bill" id={id} />
        <Button variant="secondary" onClick={() => void moveToCart()} data-testid="move-to-cart">
          {t('bill.moveToCart')}
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
            {gst && c?.gstin && <div data-testid="bill-company-gstin">{t('customerForm.gstin')} {c.gstin}</div>}
          </div>
          <div className="sl-bill__meta">
            {gst ? (
              <>
                <h2 style={{ margin: 0 }} data-testid="bill-document">
                  {billOfSupply(bill) ? t('gst.billOfSupply') : t('gst.taxInvoice')}
                </h2>
                <div>
                  {t('bill.invoiceNo')} <b data-testid="bill-invoice-no">{s.invoice_no}</b>
                </div>
                <div className="sl-muted">{t('bill.header', { no: s.sale_id })}</div>
              </>
            ) : (
              <h2 style={{ margin: 0 }}>{t('bill.header', { no: s.sale_id })}</h2>
            )}
            <div>
              {t('sell.date')} <span className="nowrap">{s.date}</span>
            </div>
            <div>
              {t('sell.dueDate')} <span className="nowrap">{s.due_date}</span>
            </div>
            {bill.ewaybill?.needed && (
              <div className="sl-ewb-badge" data-testid="ewaybill-needed">
                {t('ewaybill.needed')}
              </div>
            )}
            {bill.ewaybill?.ewb_no && (
              <div data-testid="ewaybill-no">
                {t('ewaybill.no')} {bill.ewaybill.ewb_no}
              </div>
            )}
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
                {t('customerForm.gstin')} <span data-testid="bill-customer-gstin">{s.customer.gstin}</span>
              </>
            )}
          </div>
        )}
        {s.walkIn && s.recipient && (s.recipient.address.length > 0 || s.recipient.state_code) && (
          // A walk-in's particulars typed at the counter (Rule 46(e)), as the tax invoice prints them.
          <div className="sl-bill__cust" data-testid="bill-recipient">
            <b>{s.recipient.name}</b>
            <br />
            {[...s.recipient.address, s.recipient.state_name ? `${s.recipient.state_name} (${s.recipient.state_code})` : ''].filter(Boolean).join(', ')}
          </div>
        )}
        {gst && (
          <div className="sl-bill__pos" data-testid="bill-place-of-supply">
            {t('bill.placeOfSupply', { name: s.place_of_supply_name, code: s.place_of_supply })}
            {s.document === 'bill-of-supply' && <div data-testid="bill-composition">{t('bill.composition')}</div>}
          </div>
        )}
        <BillLines bill={bill} gst={gst} />
        {(s.approvals ?? []).length > 0 && (
          // Discounts a manager approved by PIN (issue 28).
          <div className="sl-bill__approvals" data-testid="bill-approvals">
            <b>{t('approvals.approvedBy')}</b>
            <ul>
              {s.approvals!.map((a) => (
                <li key={`${a.kind}-${a.sl_no ?? 0}`}>
                  {a.kind === 'line'
                    ? t('approvals.line', { name: a.approver_name, discount: formatINR(a.discount), sl_no: bill.soldProducts.findIndex((p) => p.sl_no === a.sl_no) + 1 })
                    : t('approvals.summary', { name: a.approver_name, discount: formatINR(a.discount) })}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div className="sl-bill__totals" data-testid="bill-totals">
          {gst ? <GstTotals bill={bill} /> : <SimpleTotals bill={bill} />}
          {!s.walkIn && (
            <>
              <span>{t('gst.previousDue')}</span>
              <span className="r" data-testid="bill-previous-due">
                {formatINR(bill.previousDue)}
              </span>
            </>
          )}
          <span className="grand">{t('sell.total')}</span>
          <span className="grand r" data-testid="bill-total">
            {formatINR(s.total)}
          </span>
          <span>{t('sell.paid')}</span>
          <span className="r" data-testid="bill-paid">
            {formatINR(s.paid)}
          </span>
          {(s.payments ?? []).map((p, i) => (
            // Each tender of the payment (issue 28), as the server recorded it.
            <Fragment key={`tender-${i}`}>
              <span className="tender" data-testid={`bill-tender-${i}`}>
                {tu(`payModes.${p.mode}`)}
                {p.ref ? ` · ${p.ref}` : ''}
              </span>
              <span className="tender r">{formatINR(p.amount)}</span>
            </Fragment>
          ))}
          <span className="grand">{t('bill.totalDue')}</span>
          {/* Due is shown rounded to rupees (spec 000 §9). */}
          <span className="grand r" data-testid="bill-due">
            {formatINR(s.due, 0)}
          </span>
        </div>
      </article>
    </div>
  );
}
