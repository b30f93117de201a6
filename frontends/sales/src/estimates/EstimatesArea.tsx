import { useCallback, useEffect, useState } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import { i18n, translateServerMessage, useTranslation } from '@bahi/i18n';
import {
  api,
  ApiError,
  Button,
  errorMessage,
  ExportButtons,
  formatINR,
  isManager,
  openDocument,
  PagedTable,
  ShareButton,
  Spinner,
  useAlert,
  useConfirm,
  usePageHeader,
  useUser,
} from '@bahi/ui-kit';
import type { Customer } from '../clients/customer';
import type { PurchaseValues, SellValues } from '../cart/CheckoutPanels';
import { LinesTable } from '../cart/LinesTable';
import { DiscountRefused, useDiscountCall } from '../cart/discounts';
import {
  GENERIC_FAILURE,
  PRODUCT_NOT_FOUND,
  entryCode,
  gstRefusal,
  type AddReply,
  type UpdateReply,
} from '../cart/lines';
import { ProductEntry } from '../cart/ProductEntry';
import { CounterLayout, SummaryRows, useAmountBoxes, useCheckout, useSalePreview } from '../cart/counter';
import type { EstimateSummeryReply } from '@bahi/contracts';
import '../cart/sales.css';
import '../i18n';

const money = (key: string) => (row: Record<string, unknown>) => formatINR(row[key] as number);

function EstimateListPage() {
  const { t } = useTranslation('sales');
  usePageHeader(<span>{t('estimates.title')}</span>, [t]);
  return (
    <PagedTable
      title={t('estimates.title')}
      testId="estimate-list"
      actions={<ExportButtons list="estimates" />}
      rowUrl="/estimateList/edit"
      loadErrorMessage={t('estimates.loadFailed')}
      columns={[
        { key: 'id', header: t('clients.id') },
        { key: 'Date', header: t('sell.date') },
        { key: 'Clients Name', header: t('list.clientsName') },
        { key: 'Total Amount', header: t('list.totalAmount'), align: 'right', render: money('Total Amount') },
      ]}
      load={async (pageNo, signal) => {
        const r = await api.get<{ estimateList: Record<string, unknown>[]; noOfPages: number }>('/getEstimateList', {
          query: { pageNo },
          signal,
        });
        return { rows: r.estimateList, noOfPages: r.noOfPages };
      }}
    />
  );
}

type EstimateReply = EstimateSummeryReply;

function EstimateEditor() {
  const { id = '' } = useParams();
  const [data, setData] = useState<EstimateReply | null>(null);
  const [searchKey, setSearchKey] = useState(0);
  const boxes = useAmountBoxes();
  const alert = useAlert();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const user = useUser();
  const checkout = useCheckout(() => !data?.cart.length);
  const { t } = useTranslation('sales');
  usePageHeader(<span>{t('estimates.header', { no: id })}</span>, [id, t]);
  const summeryGst = data?.summery.gst ?? null;
  // GST mode: the invoice a sale to the estimate's customer would make.
  const preview = useSalePreview(!!summeryGst, { estimateId: Number(id), clientId: data?.summery.client_id ?? 0 }, data);
  const gst = summeryGst ? (preview?.gst ?? summeryGst) : null;
  const discounts = useDiscountCall();
  const [discountError, setDiscountError] = useState<string | null>(null);

  const load = useCallback(async () => {
    if (!id) return alert.error(i18n.t('sales:estimates.noId'));
    try {
      const r = await api.get<EstimateReply>('/getEstimateProductListSummery', { query: { estimateId: id } });
      setData(r);
      boxes.show(r.summery);
    } catch {
      alert.error(i18n.t('sales:estimates.fetchFailed'));
      navigate('/estimateList');
    }
    // Reloads per estimate id only; alert, navigate and the boxes are stable.
  }, [id]);
  useEffect(() => void load(), [load]);

  if (!data) return <Spinner />;
  const s = data.summery;
  const est = Number(id);
  const upd = async (path: string, body: object, failure: string) => {
    try {
      const r = await api.post<UpdateReply>(path, body);
      r.warnings.forEach((w) => alert.show(w, 'warning'));
      await load();
    } catch (err) {
      // A refused change says why (issue 28: it would leave the discount above the bill).
      alert.error(err instanceof ApiError && err.status === 400 ? translateServerMessage(err.message) : failure);
    }
  };
  /** A discount: refused with its sentence beside the field (DiscountRefused), or approved by a manager's PIN. */
  const disc = async (path: string, body: object) => {
    try {
      await discounts.send(path, body);
    } catch (err) {
      if (!(err instanceof DiscountRefused)) alert.error(t('cart.discountFailed'));
      throw err;
    } finally {
      await load();
    }
  };
  const add = async (text: string) => {
    try {
      const r = await api.get<AddReply>(`/addProductIntoEstimate/${encodeURIComponent(entryCode(text))}/${id}`);
      if (!r.length) return alert.error(PRODUCT_NOT_FOUND());
      r[1].warnings.forEach((w) => alert.show(w, 'warning'));
      await load();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };
  const setCustomer = async (c: Customer | null, asked = false) => {
    if (!asked && !(await confirm(t('estimates.confirmCustomer'))))
      return setSearchKey((k) => k + 1);
    await upd('/updateEstimateCustomer/', { id: est, client_id: c?.client_id ?? 0 }, GENERIC_FAILURE());
    setSearchKey((k) => k + 1);
  };
  /** Proceed to Sell; in GST mode refused while the invoice cannot be made. */
  const proceedToSell = () => {
    const refusal = data.cart.length ? gstRefusal(gst) : null;
    if (refusal) return alert.error(refusal);
    checkout.proceed(2);
  };

  return (
    <CounterLayout
      testId="estimate-editor"
      title={t('estimates.header', { no: id })}
      headExtra={<span className="sl-muted">{s.date}</span>}
      entry={<ProductEntry suggestions={data.product_list} onAdd={add} onEmptyEnter={proceedToSell} />}
      table={
        <LinesTable
          lines={data.cart}
          gst={gst}
          onQuantity={(l, v) => upd('/updateQuanInEstimate/', { sl_no: l.sl_no, quantity: v, estimateId: est }, t('cart.quantityFailed'))}
          onDiscount={(l, v) => disc('/updateDiscInEstimate/', { sl_no: l.sl_no, discount: v, estimateId: est })}
          onRemove={async (l) => {
            if (!(await confirm(t('estimates.confirmRemove', { name: l.product_name })))) return;
            await api
              .get(`/removeProductFromEstimate/${l.sl_no}/${id}`)
              .catch((err: unknown) => alert.error(err instanceof ApiError && err.status === 400 ? translateServerMessage(err.message) : t('cart.removeFailed')));
            await load();
          }}
        />
      }
      dialog={discounts.dialog}
      customer={data.customerDetails}
      customerTestId="estimate-customer"
      searchKey={searchKey}
      onChooseCustomer={(c) => void setCustomer(c)}
      rows={
        <SummaryRows
          summery={s}
          gst={gst}
          due={data.previous_due}
          boxes={boxes}
          idPrefix="estimate-"
          onTax={(tax) => void upd('/updateEstimateTax/', { id: est, tax }, t('cart.taxFailed'))}
          onShipping={() => void upd('/updateEstimateShip/', { id: est, shipping: boxes.shipping }, t('cart.shippingFailed'))}
          discountError={discountError}
          onDiscount={() =>
            void disc('/updateEstimateSummeryDisc/', { id: est, discount: boxes.discount }).then(
              () => setDiscountError(null),
              (err: unknown) => setDiscountError(err instanceof DiscountRefused ? err.message : null),
            )
          }
        />
      }
      gst={gst}
      actions={
        <>
          <Button onClick={proceedToSell}>{t('counter.proceedSell')}</Button>
          {isManager(user) && (
            <Button variant="secondary" onClick={() => checkout.proceed(3)}>
              {t('counter.proceedPurchase')}
            </Button>
          )}
          <Button
            variant="secondary"
            onClick={() =>
              openDocument(`/documents/estimate/${id}`, { print: true }).catch(() =>
                alert.error(t('bill.printFailed')),
              )
            }
          >
            {t('print.print')}
          </Button>
          <ShareButton kind="estimate" id={id} block />
          <Button variant="secondary" onClick={() => alert.success(t('estimates.saved'))}>
            {t('common.save')}
          </Button>
          <Button
            variant="secondary"
            onClick={async () => {
              if (!(await confirm(t('estimates.confirmDuplicate')))) return;
              try {
                const r = await api.get<{ duplicated_estimate_id: number }>('/duplicateEstimate', {
                  query: { estimate_id: id },
                });
                navigate(`/estimateList/edit/${r.duplicated_estimate_id}`);
              } catch (err) {
                alert.error(errorMessage(err));
              }
            }}
          >
            {t('estimates.duplicate')}
          </Button>
          <Button
            variant="danger"
            onClick={async () => {
              if (!(await confirm({ message: t('estimates.confirmDelete'), danger: true }))) return;
              try {
                await api.delete(`/deleteEstimate/${id}`);
                navigate('/estimateList');
              } catch {
                alert.error(t('estimates.deleteFailed'));
              }
            }}
          >
            {t('estimates.delete')}
          </Button>
        </>
      }
      checkout={checkout}
      total={s.total}
      preview={preview}
      hideOfficer
      onCustomerSaved={(c) => {
        // Adding a customer here makes them the estimate's customer (spec 000 §4).
        checkout.setPanel(0);
        void setCustomer(c, true);
      }}
      onSell={(v: SellValues) => checkout.sell('/makeSaleFromEstimate', { clientId: s.client_id, estimateId: est, ...v })}
      onPurchase={(v: PurchaseValues) => checkout.purchase('/checkOutPurchaseFromEstimate', { ...v, officer: '', estimateId: est })}
    />
  );
}

/** Estimates, mounted by the shell at /estimateList/*. */
export default function EstimatesArea() {
  const { t } = useTranslation('sales');
  return (
    <Routes>
      <Route index element={<EstimateListPage />} />
      <Route path="edit/:id" element={<EstimateEditor />} />
      <Route
        path="*"
        element={
          <div className="bk-card sl-card">
            <h2>{t('common.notFound')}</h2>
          </div>
        }
      />
    </Routes>
  );
}
