import './i18n';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, Spinner, StatCards, api, errorMessage, formatINR, openDocument, useAlert } from '@bahi/ui-kit';
import { labelPages, packetsQuery } from './distributor';
import { purchaseGstView } from './gst';
import { NotFound } from './NotFound';
import { PurchaseDebitNotes, ReturnToDistributor } from './PurchaseReturn';
import './purchase.css';
import type { GetPurchaseDetailsReply, GetPurchaseLabelDetailsReply } from '@bahi/contracts';

type Details = GetPurchaseDetailsReply;

/** Loads one purchase reply; null while loading, 'missing' when it failed. A new `version` reads it again, keeping the old one on screen. */
function usePurchase<T>(path: string, id: string | undefined, version = 0): T | null | 'missing' {
  const alert = useAlert();
  const [data, setData] = useState<T | null | 'missing'>(null);
  const shown = useRef(id);
  useEffect(() => {
    const ctl = new AbortController();
    if (shown.current !== id) {
      shown.current = id;
      setData(null);
    }
    api
      .get<T>(path, { query: { purchaseId: id }, signal: ctl.signal })
      .then(setData)
      .catch((err) => {
        if (ctl.signal.aborted) return;
        setData('missing');
        alert.error(errorMessage(err));
      });
    return () => ctl.abort();
  }, [path, id, alert, version]);
  return data;
}

const qty = (n: number) => n.toLocaleString('en-IN', { maximumFractionDigits: 3 });

/** /purchase/{id}: the bought lines and totals, with Configure Label. */
export function PurchaseDetailPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  // Bumped after a return to the distributor: the purchase is read again.
  const [version, setVersion] = useState(0);
  const { t } = useTranslation('purchase');
  const p = usePurchase<Details>('/getPurchaseDetails', id, version);
  if (p === 'missing') return <NotFound title={t('detail.notFound')} back="/purchaseList" backLabel={t('detail.back')} />;
  if (!p) return <Spinner label={t('detail.loading')} />;
  const g = purchaseGstView(p);
  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1 data-testid="purchase-title">{t('detail.title', { id: String(p.id) })}</h1>
          <span className="bk-muted">
            {t('detail.bill', { bill: String(p.bill_no), date: p.date })}
          </span>
        </div>
        <div className="pu-actions">
          <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
            {t('common.purchaseAccount')}
          </Button>
          <ReturnToDistributor purchase={p} onReturned={() => setVersion((v) => v + 1)} />
          <Button onClick={() => navigate(`/purchase/${p.id}/printLabel`)}>{t('detail.configureLabel')}</Button>
        </div>
      </div>
      <PurchaseDebitNotes purchase={p} />
      <StatCards
        stats={[
          {
            label: t('detail.distributor'),
            value: (
              <Link className="pu-link" to={`/distributor/transaction/${p.distributor_id}`} data-testid="purchase-distributor">
                {p.name}
              </Link>
            ),
          },
          ...(g
            ? [
                { label: t('detail.gstin'), value: g.gst.distributor_gstin ?? t('detail.unregistered'), small: true, testId: 'purchase-gstin' },
                { label: t('detail.state'), value: g.distributorState, small: true, testId: 'purchase-state' },
              ]
            : []),
          { label: t('detail.officer'), value: p.officer?.name ?? '—' },
          { label: t('common.dueDate'), value: p.duedate },
          { label: t('detail.newDue'), value: formatINR(p.new_due), due: p.new_due > 0, testId: 'purchase-new-due' },
        ]}
      />
      {/* GST mode's extra columns need the full width: the totals go below the lines. */}
      <div className={g ? 'pu-detail pu-detail--gst' : 'pu-detail'}>
        <Card title={t('detail.products')}>
          <div className="pu-table-wrap">
            <table className="pu-table" data-testid="purchase-lines">
              <thead>
                <tr>
                  <th>#</th>
                  <th>{t('common.product')}</th>
                  <th className="pu-num">{t('detail.qty')}</th>
                  <th className="pu-num">{t('detail.rate')}</th>
                  <th className="pu-num">{t('detail.disc')}</th>
                  <th className="pu-num">{t('detail.unitsIn')}</th>
                  <th className="pu-num">{t('common.amount')}</th>
                  {g && (
                    <>
                      <th>{t('detail.hsn')}</th>
                      <th className="pu-num">{t('detail.gstRate')}</th>
                      <th className="pu-num">{t('detail.taxable')}</th>
                      {g.heads.map((h) => (
                        <th key={h.key} className="pu-num">
                          {h.label}
                        </th>
                      ))}
                    </>
                  )}
                </tr>
              </thead>
              <tbody>
                {p.lines.map((l, i) => (
                  <tr key={l.sl_no}>
                    <td>{i + 1}</td>
                    <td>
                      <Link className="pu-link" to={`/productItem/${l.product_id}`}>
                        {l.product_id} : {l.product_name}
                      </Link>
                    </td>
                    <td className="pu-num">
                      {qty(l.quantity)}
                      {l.per_peice_quantity !== 1 && <span className="bk-muted"> × {qty(l.per_peice_quantity)}</span>}
                    </td>
                    <td className="pu-num">{formatINR(l.rate)}</td>
                    <td className="pu-num">{l.disc ? formatINR(l.disc) : '—'}</td>
                    <td className="pu-num">
                      {qty(l.units)} {l.unit}
                    </td>
                    <td className="pu-num">{formatINR(l.amount)}</td>
                    {g && <GstCells view={g} sl_no={l.sl_no} />}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
        <Card title={t('detail.totals')}>
          <dl className="pu-totals" data-testid="purchase-totals">
            <dt>{t('detail.subTotal')}</dt>
            <dd>{formatINR(p.subTotal)}</dd>
            {g ? (
              <>
                <dt>{t('detail.shipping')}</dt>
                <dd>{formatINR(p.shipping)}</dd>
                <dt>{t('detail.discount')}</dt>
                <dd>- {formatINR(p.summery_discount)}</dd>
                <dt>{t('detail.taxableValue')}</dt>
                <dd data-testid="purchase-taxable">{formatINR(g.gst.taxable_total)}</dd>
                {g.heads.map((h) => (
                  <GstTotal key={h.key} label={h.label} value={h.total} />
                ))}
                <dt>{t('detail.roundOff')}</dt>
                <dd data-testid="purchase-round-off">{formatINR(g.roundOff)}</dd>
              </>
            ) : (
              <>
                <dt>{p.tax === 1 ? t('detail.taxAt18') : t('detail.tax')}</dt>
                <dd>{formatINR(p.taxAmount)}</dd>
                <dt>{t('detail.shipping')}</dt>
                <dd>{formatINR(p.shipping)}</dd>
                <dt>{t('detail.discount')}</dt>
                <dd>- {formatINR(p.summery_discount)}</dd>
              </>
            )}
            <dt className="pu-totals__strong">{t('detail.total')}</dt>
            <dd className="pu-totals__strong" data-testid="purchase-total">
              {formatINR(p.total)}
            </dd>
            <dt>{t('detail.paid')}</dt>
            <dd>{formatINR(p.paid)}</dd>
            <dt>{t('detail.previousDue')}</dt>
            <dd>{formatINR(p.previous_due)}</dd>
            <dt className="pu-totals__strong">{t('detail.newDue')}</dt>
            <dd className="pu-totals__strong">{formatINR(p.new_due)}</dd>
          </dl>
        </Card>
      </div>
    </>
  );
}

/** A line's input tax: HSN, rate, taxable value and the heads the purchase was taxed under. */
function GstCells({ view, sl_no }: { view: NonNullable<ReturnType<typeof purchaseGstView>>; sl_no: number }) {
  const t = view.line(sl_no);
  return (
    <>
      <td className="pu-code">{t?.hsn_code ?? '—'}</td>
      <td className="pu-num">{t ? `${t.gst_rate}%` : '—'}</td>
      <td className="pu-num">{t ? formatINR(t.taxable_value) : '—'}</td>
      {view.heads.map((h) => (
        <td key={h.key} className="pu-num">
          {t ? formatINR(t[h.key]) : '—'}
        </td>
      ))}
    </>
  );
}

function GstTotal({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={`purchase-${label.toLowerCase()}`}>{formatINR(value)}</dd>
    </>
  );
}

/** /purchase/{id}/printLabel: packets per product, then print the QR labels (4 x 10 per page). */
export function PurchaseLabelPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('purchase');
  const data = usePurchase<GetPurchaseLabelDetailsReply>('/getPurchaseLabelDetails', id);
  const [packets, setPackets] = useState<Record<number, string>>({});
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    if (data && data !== 'missing') setPackets(Object.fromEntries(data.labels.map((l) => [l.product_id, String(l.packets)])));
  }, [data]);
  const count = useMemo(() => labelPages(packets), [packets]);
  if (data === 'missing') return <NotFound title={t('detail.notFound')} back="/purchaseList" backLabel={t('detail.back')} />;
  if (!data) return <Spinner label={t('labels.loading')} />;

  const print = async () => {
    if (!count.labels) return alert.error(t('labels.enterPacket'));
    setPrinting(true);
    try {
      await openDocument(`/documents/purchase-labels/${data.purchase_id}?packets=${encodeURIComponent(packetsQuery(packets))}`, { print: true });
    } catch {
      alert.error(t('labels.printFailed'));
    } finally {
      setPrinting(false);
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1>{t('labels.title', { id: String(data.purchase_id) })}</h1>
          <span className="bk-muted">
            {data.distributor_name} · {data.date}
          </span>
        </div>
        <div className="pu-actions">
          <Button variant="secondary" onClick={() => navigate(`/purchase/${data.purchase_id}`)}>
            {t('labels.backToPurchase')}
          </Button>
          <Button busy={printing} onClick={print} data-testid="print-labels">
            {t('common.print')}
          </Button>
        </div>
      </div>
      <Card
        title={t('labels.card')}
        actions={
          <span className="bk-muted" data-testid="label-count">
            {t('labels.count', { labels: String(count.labels), pages: count.pages })}
          </span>
        }
      >
        <div className="pu-table-wrap">
          <table className="pu-table" data-testid="label-table">
            <thead>
              <tr>
                <th>{t('common.product')}</th>
                <th>{t('common.brand')}</th>
                <th className="pu-num">{t('common.mrp')}</th>
                <th>{t('common.code')}</th>
                <th className="pu-num">{t('labels.packets')}</th>
              </tr>
            </thead>
            <tbody>
              {data.labels.map((l) => (
                <tr key={l.product_id}>
                  <td>
                    {l.product_id} : {l.product_name}
                  </td>
                  <td>{l.brand_name}</td>
                  <td className="pu-num">{formatINR(l.mrp)}</td>
                  <td className="pu-code">{l.code}</td>
                  <td className="pu-num">
                    <input
                      className="pu-packets"
                      aria-label={t('labels.packetsOf', { name: l.product_name })}
                      type="number"
                      min={0}
                      step={1}
                      value={packets[l.product_id] ?? ''}
                      onChange={(e) => setPackets({ ...packets, [l.product_id]: e.target.value })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}

/** Mounted by the shell at /purchase/*. */
export default function PurchaseArea() {
  return (
    <Routes>
      <Route path=":id" element={<PurchaseDetailPage />} />
      <Route path=":id/printLabel" element={<PurchaseLabelPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
