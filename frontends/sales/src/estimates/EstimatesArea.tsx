import { useCallback, useEffect, useRef, useState } from 'react';
import { Route, Routes, useNavigate, useParams } from 'react-router-dom';
import {
  api,
  ApiError,
  Button,
  errorMessage,
  formatINR,
  isManager,
  openDocument,
  PagedTable,
  Spinner,
  useAlert,
  useConfirm,
  usePageHeader,
  useUser,
  newIdempotencyKey,
} from '@bahi/ui-kit';
import type { Customer } from '../clients/customer';
import type { PurchaseValues } from '../cart/CheckoutPanels';
import { LinesTable } from '../cart/LinesTable';
import {
  GENERIC_FAILURE,
  PRODUCT_NOT_FOUND,
  entryCode,
  type AddReply,
  type UpdateReply,
} from '../cart/lines';
import { ProductEntry } from '../cart/ProductEntry';
import { AmountInput, CheckoutModal, CustomerChooser, type Panel } from '../cart/SummaryParts';
import type { EstimateSummeryReply } from '@bahi/contracts';
import '../cart/sales.css';

const money = (key: string) => (row: Record<string, unknown>) => formatINR(row[key] as number);

function EstimateListPage() {
  usePageHeader(<span>Estimates</span>, []);
  return (
    <PagedTable
      title="Estimates"
      testId="estimate-list"
      rowUrl="/estimateList/edit"
      loadErrorMessage="unable to connet to server"
      columns={[
        { key: 'id', header: 'ID' },
        { key: 'Date', header: 'Date' },
        { key: 'Clients Name', header: 'Clients Name' },
        { key: 'Total Amount', header: 'Total Amount', align: 'right', render: money('Total Amount') },
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
  const [panel, setPanel] = useState<Panel>(0);
  const [ship, setShip] = useState('0');
  const [disc, setDisc] = useState('0');
  const [searchKey, setSearchKey] = useState(0);
  const checkoutKey = useRef(newIdempotencyKey());
  const alert = useAlert();
  const confirm = useConfirm();
  const navigate = useNavigate();
  const user = useUser();
  usePageHeader(<span>Estimate #{id}</span>, [id]);

  const load = useCallback(async () => {
    if (!id) return alert.error('No estimate id found');
    try {
      const r = await api.get<EstimateReply>('/getEstimateProductListSummery', { query: { estimateId: id } });
      setData(r);
      setShip(String(r.summery.shipping));
      setDisc(String(r.summery.discount));
    } catch {
      alert.error('Error fetching estimate data');
      navigate('/estimateList');
    }
    // Reloads per estimate id only; alert and navigate are stable.
  }, [id]);
  useEffect(() => void load(), [load]);

  if (!data) return <Spinner />;
  const s = data.summery;
  const upd = async (path: string, body: object, failure: string) => {
    try {
      const r = await api.post<UpdateReply>(path, body);
      r.warnings.forEach((w) => alert.show(w, 'warning'));
      await load();
    } catch {
      alert.error(failure);
    }
  };
  const add = async (text: string) => {
    try {
      const r = await api.get<AddReply>(`/addProductIntoEstimate/${encodeURIComponent(entryCode(text))}/${id}`);
      if (!r.length) return alert.error(PRODUCT_NOT_FOUND);
      r[1].warnings.forEach((w) => alert.show(w, 'warning'));
      await load();
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };
  const setCustomer = async (c: Customer | null, asked = false) => {
    if (!asked && !(await confirm('Do you want to change the customer of this estimate?')))
      return setSearchKey((k) => k + 1);
    await upd('/updateEstimateCustomer/', { id: Number(id), client_id: c?.client_id ?? 0 }, GENERIC_FAILURE);
    setSearchKey((k) => k + 1);
  };
  const sell = async (v: { paid: string; dueDate: string; date: string }) => {
    try {
      const r = await api.post<{ saleId?: number }>(
        '/makeSaleFromEstimate',
        { clientId: s.client_id, estimateId: Number(id), ...v },
        { headers: { 'Idempotency-Key': checkoutKey.current } },
      );
      if (!r?.saleId) return alert.error(GENERIC_FAILURE);
      navigate(`/salesList/bill/print/${r.saleId}`);
    } catch (err) {
      alert.error(err instanceof ApiError ? err.message : GENERIC_FAILURE);
    }
  };
  const purchase = async (v: PurchaseValues) => {
    try {
      const r = await api.post<{ id?: number }[]>(
        '/checkOutPurchaseFromEstimate',
        { ...v, officer: '', estimateId: Number(id) },
        { headers: { 'Idempotency-Key': checkoutKey.current } },
      );
      if (!Array.isArray(r) || !r[0]?.id) throw new Error('no id');
      alert.success('Purchase Success...');
      navigate(`/purchase/${r[0].id}`);
    } catch {
      alert.error('Error Occured please contact admin..');
      navigate('/');
    }
  };
  const proceed = (p: 2 | 3) => {
    if (!data.cart.length) return alert.error('cart is emplty!!');
    checkoutKey.current = newIdempotencyKey();
    setPanel(p);
  };

  return (
    <div className="sl-cart" data-testid="estimate-editor">
      <section className="bk-card sl-card">
        <header className="sl-card__head">
          <h2>Estimate #{id}</h2>
          <span className="sl-muted">{s.date}</span>
        </header>
        <ProductEntry suggestions={data.product_list} onAdd={add} onEmptyEnter={() => proceed(2)} />
        <LinesTable
          lines={data.cart}
          onQuantity={(l, v) =>
            upd(
              '/updateQuanInEstimate/',
              { sl_no: l.sl_no, quantity: v, estimateId: Number(id) },
              'could not update quantity',
            )
          }
          onDiscount={(l, v) =>
            upd(
              '/updateDiscInEstimate/',
              { sl_no: l.sl_no, discount: v, estimateId: Number(id) },
              'could not update discount',
            )
          }
          onRemove={async (l) => {
            if (!(await confirm(`Remove ${l.product_name} from the estimate?`))) return;
            await api
              .get(`/removeProductFromEstimate/${l.sl_no}/${id}`)
              .catch(() => alert.error('cannot delete item from cart'));
            await load();
          }}
        />
      </section>
      <section className="bk-card sl-card sl-summary">
        <header className="sl-card__head">
          <h2>Summery</h2>
        </header>
        <CustomerChooser customer={data.customerDetails} searchKey={searchKey} testId="estimate-customer" onChoose={(c) => void setCustomer(c)} onAdd={() => setPanel(1)} />
        <dl className="sl-rows">
          <dt>Subtotal</dt>
          <dd className="bk-money">{formatINR(s.subtotal)}</dd>
          <dt>Due</dt>
          <dd className="bk-money">{formatINR(data.previous_due, 0)}</dd>
          <dt>
            <label>
              <input
                type="checkbox"
                checked={s.tax === 1}
                onChange={(e) =>
                  void upd(
                    '/updateEstimateTax/',
                    { id: Number(id), tax: e.target.checked ? 1 : 0 },
                    'could not update tax',
                  )
                }
              />{' '}
              Tax (18%)
            </label>
          </dt>
          <dd className="bk-money">{formatINR(s.taxAmount)}</dd>
          <dt>Shipping</dt>
          <dd>
            <AmountInput
              label="Shipping"
              value={ship}
              saved={s.shipping}
              onChange={setShip}
              onCommit={() => void upd('/updateEstimateShip/', { id: Number(id), shipping: ship }, 'could not update shipping')}
            />
          </dd>
          <dt>Discount</dt>
          <dd>
            <AmountInput
              label="Discount"
              value={disc}
              saved={s.discount}
              onChange={setDisc}
              onCommit={() => void upd('/updateEstimateSummeryDisc/', { id: Number(id), discount: disc }, 'could not update discount')}
            />
          </dd>
          <dt className="sl-total">Total</dt>
          <dd className="sl-total bk-money" data-testid="estimate-total">
            {formatINR(s.total)}
          </dd>
        </dl>
        <div className="sl-actions">
          <Button onClick={() => proceed(2)}>Proceed to Sell</Button>
          {isManager(user) && (
            <Button variant="secondary" onClick={() => proceed(3)}>
              Proceed to purchase
            </Button>
          )}
          <Button
            variant="secondary"
            onClick={() =>
              openDocument(`/documents/estimate/${id}`, { print: true }).catch(() =>
                alert.error('Unable to print the bill, please try again later.'),
              )
            }
          >
            Print
          </Button>
          <Button variant="secondary" onClick={() => alert.success('Estimate saved.')}>
            Save
          </Button>
          <Button
            variant="secondary"
            onClick={async () => {
              if (!(await confirm('Do you want to duplicate this estimate?'))) return;
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
            Duplicate
          </Button>
          <Button
            variant="danger"
            onClick={async () => {
              if (!(await confirm({ message: 'Do you want to delete this estimate?', danger: true }))) return;
              try {
                await api.delete(`/deleteEstimate/${id}`);
                navigate('/estimateList');
              } catch {
                alert.error('could not delete estimate');
              }
            }}
          >
            Delete Estimate
          </Button>
        </div>
      </section>
      <CheckoutModal
        panel={panel}
        total={s.total}
        hideOfficer
        onClose={() => setPanel(0)}
        onCustomerSaved={(c) => {
          // Adding a customer here makes them the estimate's customer (spec 000 §4).
          setPanel(0);
          void setCustomer(c, true);
        }}
        onSell={sell}
        onPurchase={purchase}
        onError={(m) => alert.error(m)}
      />
    </div>
  );
}

/** Estimates, mounted by the shell at /estimateList/*. */
export default function EstimatesArea() {
  return (
    <Routes>
      <Route index element={<EstimateListPage />} />
      <Route path="edit/:id" element={<EstimateEditor />} />
      <Route
        path="*"
        element={
          <div className="bk-card sl-card">
            <h2>Page Not Found!</h2>
          </div>
        }
      />
    </Routes>
  );
}
