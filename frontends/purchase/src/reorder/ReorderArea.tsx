import '../i18n';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, Spinner, api, errorMessage, fetchDocument, openDocument, useAlert, useConfirm } from '@bahi/ui-kit';
import type { FillCartReply, GetProductsReply, GetReorderListReply, ReorderGroup } from '@bahi/contracts';
import { NotFound } from '../NotFound';
import { commonDistributor, quantityError, reorderDocumentPath, selectedLines } from './reorder';
import '../purchase.css';
import './reorder.css';

/** The manager's counter cart: Proceed to purchase is made from it. */
const CART_NO = 1;

const qty = (s: string) => Number(s).toLocaleString('en-IN', { maximumFractionDigits: 3 });
const rupees = (s: string | null) => (s === null ? '—' : `₹${Number(s).toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`);

/** Print, download or (on a phone) share one group's list as a PDF to its distributor. */
function GroupActions({ group, selected }: { group: ReorderGroup; selected: ReadonlySet<number> }) {
  const alert = useAlert();
  const { t } = useTranslation('purchase');
  const path = reorderDocumentPath(group, selected);
  const run = (failed: 'printFailed' | 'downloadFailed' | 'shareFailed', fn: () => Promise<void>) => () =>
    void fn().catch((err) => alert.error(t(`reorder.${failed}`, { error: errorMessage(err) })));
  const share = async () => {
    const { blob, fileName } = await fetchDocument(path);
    const file = new File([blob], fileName, { type: 'application/pdf' });
    // Phones share the PDF straight to WhatsApp; a desktop without the share sheet downloads it.
    if (navigator.canShare?.({ files: [file] })) await navigator.share({ files: [file], title: t('reorder.shareTitle', { name: group.distributorName }) });
    else await openDocument(path, { download: true });
  };
  return (
    <div className="pu-actions">
      <Button variant="secondary" onClick={run('printFailed', () => openDocument(path, { print: true }))} data-testid={`reorder-print-${group.distributorId}`}>
        {t('common.print')}
      </Button>
      <Button variant="secondary" onClick={run('downloadFailed', () => openDocument(path, { download: true }))}>
        {t('reorder.pdf')}
      </Button>
      <Button variant="secondary" onClick={run('shareFailed', share)}>
        {t('reorder.share')}
      </Button>
    </div>
  );
}

/** /reorderList: products at or below their minimum stock, by the distributor they were last bought from. */
export function ReorderPage() {
  const alert = useAlert();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const { t } = useTranslation('purchase');
  const [data, setData] = useState<GetReorderListReply | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    api.get<GetReorderListReply>('/reorderList').then(setData, (err) => {
      setData({ groups: [], count: 0 });
      alert.error(errorMessage(err));
    });
  }, [alert]);
  useEffect(load, [load]);

  const toggle = (ids: number[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const lines = useMemo(() => (data ? selectedLines(data.groups, selected, typed) : []), [data, selected, typed]);

  const createPurchase = async () => {
    if (!data || !lines.length) return alert.error(t('reorder.selectProducts'));
    for (const l of lines) {
      const err = quantityError(l.quantity);
      if (err) return alert.error(err);
    }
    setBusy(true);
    try {
      const cart = await api.get<GetProductsReply>('/getProducts', { query: { cart_no: CART_NO } });
      if (cart.cart.length && !(await confirm({ message: t('reorder.cartHolds', { lines: cart.cart.length, selected: lines.length }), confirmLabel: t('reorder.addToCart') }))) return;
      await api.post<FillCartReply>('/reorderList/fillCart', { cart_no: CART_NO, lines });
      const distributor = commonDistributor(data.groups, selected);
      navigate(`/?purchase=1${distributor ? `&distributor=${distributor}` : ''}`);
    } catch (err) {
      alert.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  if (!data) return <Spinner label={t('reorder.loading')} />;
  return (
    <>
      <div className="bk-page-title">
        <div>
          <h1>{t('reorder.title')}</h1>
          <span className="bk-muted" data-testid="reorder-count">
            {t('reorder.count', { count: data.count })}
          </span>
        </div>
        <div className="pu-actions">
          <Button variant="secondary" onClick={() => navigate('/purchaseList')}>
            {t('common.purchaseAccount')}
          </Button>
          <Button onClick={() => void createPurchase()} disabled={busy || !lines.length} data-testid="reorder-create-purchase">
            {lines.length ? t('reorder.createN', { n: lines.length }) : t('reorder.create')}
          </Button>
        </div>
      </div>
      {data.groups.length === 0 && (
        <Card>
          <p className="bk-muted" data-testid="reorder-empty">
            {t('reorder.empty')}
          </p>
        </Card>
      )}
      {data.groups.map((g) => {
        const ids = g.lines.map((l) => l.product_id);
        const all = ids.every((id) => selected.has(id));
        // Group 0 is inventory's "No purchase yet": named here in the active language.
        const name = g.distributorId === 0 ? t('reorder.noPurchase') : g.distributorName;
        return (
          <section className="bk-card bk-table-card ro-group" key={g.distributorId} data-testid={`reorder-group-${g.distributorId}`}>
            <header className="bk-card__head">
              <h2>
                <label className="ro-check">
                  <input type="checkbox" checked={all} onChange={(e) => toggle(ids, e.target.checked)} aria-label={t('reorder.selectAll', { name })} />
                  {name}
                </label>
                <span className="ro-count">{t('reorder.groupCount', { count: g.lines.length })}</span>
              </h2>
              <div className="bk-card__actions">
                <GroupActions group={g} selected={selected} />
              </div>
            </header>
            <div className="bk-table-wrap">
              <table className="bk-table ro-table">
                <thead>
                  <tr>
                    <th />
                    <th>{t('common.code')}</th>
                    <th>{t('common.product')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.stock')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.min')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.default')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.lastCost')}</th>
                    <th>{t('reorder.lastBought')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.orderQty')}</th>
                    <th style={{ textAlign: 'right' }}>{t('reorder.unitsIn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {g.lines.map((l) => {
                    const value = typed[l.product_id] ?? l.suggested_quantity;
                    const units = quantityError(value) ? '—' : qty(String(Number(value) * Number(l.per_peice_quantity)));
                    return (
                      <tr key={l.product_id} data-testid={`reorder-line-${l.product_id}`} className={selected.has(l.product_id) ? 'ro-selected' : ''}>
                        <td>
                          <input type="checkbox" checked={selected.has(l.product_id)} onChange={(e) => toggle([l.product_id], e.target.checked)} aria-label={t('reorder.select', { name: l.product_name })} />
                        </td>
                        <td>{l.product_id}</td>
                        <td>
                          <div className="ro-name">{l.product_name}</div>
                          <div className="bk-muted ro-brand">
                            {l.brand_name}
                            {l.per_peice_quantity !== '1' ? t('reorder.packOf', { qty: qty(l.per_peice_quantity), unit: l.unit }) : ''}
                          </div>
                        </td>
                        <td style={{ textAlign: 'right' }} className={Number(l.stock) < 0 ? 'ro-negative' : ''}>
                          {qty(l.stock)} {l.unit}
                        </td>
                        <td style={{ textAlign: 'right' }}>{qty(l.min_stock)}</td>
                        <td style={{ textAlign: 'right' }}>{qty(l.default_stock)}</td>
                        <td style={{ textAlign: 'right' }}>{rupees(l.last_cp)}</td>
                        <td>{l.last_purchase_date ?? '—'}</td>
                        <td style={{ textAlign: 'right' }}>
                          <input
                            className="ro-qty"
                            inputMode="decimal"
                            value={value}
                            aria-label={t('reorder.orderQtyOf', { name: l.product_name })}
                            onChange={(e) => setTyped((t) => ({ ...t, [l.product_id]: e.target.value }))}
                          />
                        </td>
                        <td style={{ textAlign: 'right' }}>
                          {units} {l.unit}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </>
  );
}

/** Mounted by the shell at /reorderList/*. */
export default function ReorderArea() {
  return (
    <Routes>
      <Route index element={<ReorderPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}
