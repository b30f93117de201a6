import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { i18n, translateServerMessage, useTranslation } from '@bahi/i18n';
import { ApiError, Button, Card, Field, FormActions, FormGrid, Pager, SelectField, Spinner, api, errorMessage, useAlert, useConfirm } from '@bahi/ui-kit';
import { CONNECT_FAILED, LevelBadge, money, type Named, type Spec } from './shared';
import { TaxFields, taxFieldOfError, type TaxErrors, type TaxForm } from './TaxFields';

interface Details {
  product: {
    product_id: number;
    product_name: string;
    brand_name: string;
    category: Named | null;
    mrp: string;
    cp: string;
    unit: string;
    per_peice_quantity: string;
    stock: string;
    min_stock: string;
    default_stock: string;
    stock_level: number;
    tax_percent: string;
    active: number;
    image_url: string;
    barcode: string;
    hsn_code: string;
    /** Absent from an inventory older than GST mode: read as true. */
    price_includes_tax?: boolean;
  };
  category: Named[];
  specs: Spec[];
  specsValues: Record<string, string>;
  brands: string[];
  units: string[];
}
interface HistoryRow {
  type: string;
  Qty: string;
  Rate: string;
  Stock: string;
  Date: string;
}

type Form = Record<string, string>;

function formOf(d: Details): Form {
  const p = d.product;
  return {
    catagory: String(p.category?.id ?? ''),
    active: String(p.active),
    brand_name: p.brand_name,
    name: p.product_name,
    mrp: p.mrp,
    cp: p.cp,
    stock: p.stock,
    min_stock: p.min_stock,
    default_stock: p.default_stock,
    tax: p.tax_percent,
    unit: p.unit,
    quantity_per_peice: p.per_peice_quantity,
    barcode: p.barcode,
    hsn_code: p.hsn_code,
    price_includes_tax: String(p.price_includes_tax !== false),
  };
}

/** /productItem/{id}: view, edit, image, menu and transactions. */
export function ProductEditPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const confirm = useConfirm();
  const { t } = useTranslation('catalogue');
  const [d, setD] = useState<Details | null>(null);
  const [form, setForm] = useState<Form>({});
  const [specs, setSpecs] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [menu, setMenu] = useState(false);
  const [history, setHistory] = useState<{ result: HistoryRow[]; noOfPages: number; page: number }>({ result: [], noOfPages: 1, page: 0 });
  const [imgKey, setImgKey] = useState(0);
  const [taxErrors, setTaxErrors] = useState<TaxErrors>({});

  const load = useCallback(async () => {
    try {
      const r = await api.get<Details>('/getProductDetails', { query: { id } });
      setD(r);
      setForm(formOf(r));
      setSpecs(r.specsValues);
    } catch (err) {
      alert.error(err instanceof ApiError && err.status === 404 ? i18n.t('catalogue:edit.notFound', { id }) : CONNECT_FAILED());
    }
  }, [id]);
  const loadHistory = useCallback(
    async (page: number) => {
      try {
        const r = await api.get<{ result: HistoryRow[]; noOfPages: number }>('/getProductHistory', { query: { id, pageNo: page } });
        setHistory({ ...r, page });
      } catch {
        alert.error(CONNECT_FAILED());
      }
    },
    [id],
  );
  useEffect(() => {
    setEditing(false);
    setTaxErrors({});
    void load();
    void loadHistory(0);
  }, [load, loadHistory]);

  if (!d) return <Spinner />;
  const p = d.product;
  const set = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const dis = !editing;

  const save = async () => {
    setBusy(true);
    setTaxErrors({});
    try {
      const r = await api.post<{ done: boolean; err: string | null }>('/editProduct', { product_id: p.product_id, ...form, specs });
      if (!r.done) throw new Error(r.err ?? '');
      alert.success(t('edit.saved'));
      setEditing(false);
      await load();
      await loadHistory(0);
    } catch (err) {
      const detail = errorMessage(err, '');
      const field = taxFieldOfError(err);
      if (field) setTaxErrors({ [field]: detail });
      alert.error(detail ? t('edit.editFailedWith', { detail }) : t('edit.editFailed'));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    const fd = new FormData();
    fd.append('image', file);
    try {
      await api.upload('/updateProductImage/' + p.product_id, fd);
      alert.success(t('edit.imageUploaded'));
      await load();
      setImgKey((k) => k + 1);
    } catch (err) {
      alert.error(t('edit.uploadFailed', { status: String(err instanceof ApiError ? err.status : 0) }));
    }
  };

  const duplicate = async () => {
    setMenu(false);
    if (!(await confirm({ message: t('edit.duplicateConfirm', { name: p.product_name }), confirmLabel: t('edit.duplicate') }))) return;
    try {
      const r = await api.post<{ duplicatedProductId: number }>('/duplicateProduct', { originalProductId: p.product_id });
      alert.success(t('edit.duplicated', { id: String(r.duplicatedProductId) }));
      navigate(`/productItem/${r.duplicatedProductId}`);
    } catch (err) {
      alert.error(errorMessage(err));
    }
  };

  const remove = async () => {
    setMenu(false);
    if (!(await confirm({ message: t('edit.deleteConfirm', { name: p.product_name }), confirmLabel: t('common.delete'), danger: true }))) return;
    try {
      const r = await api.delete<{ success: boolean; message: string; deactivated: boolean }>(`/product/${p.product_id}`);
      if (!r.success) throw new Error();
      alert.success(translateServerMessage(r.message));
      if (r.deactivated) await load();
      else navigate('/productItem');
    } catch {
      alert.error(t('edit.deleteFailed'));
    }
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>
          {p.product_id} : {p.product_name}
        </h1>
        <div className="ct-row-actions">
          <LevelBadge level={p.stock_level} />
          <div className="ct-menu">
            <Button variant="secondary" aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu((m) => !m)}>
              {t('edit.menu')}
            </Button>
            {menu && (
              <div className="ct-menu__list" role="menu">
                <button role="menuitem" onClick={() => navigate(`/productItem/${p.product_id}/label`)}>
                  {t('edit.generateLabel')}
                </button>
                <button role="menuitem" onClick={duplicate}>
                  {t('edit.duplicate')}
                </button>
                <button role="menuitem" onClick={remove}>
                  {t('common.delete')}
                </button>
              </div>
            )}
          </div>
        </div>
      </div>
      <div className="ct-edit">
        <Card title={t('edit.image')} className="ct-image">
          <img key={imgKey} src={p.image_url} alt={p.product_name} data-testid="product-image" />
          <label className="bk-muted" style={{ display: 'block', marginTop: 8 }}>
            {t('edit.uploadImage')}
            <input type="file" accept="image/png,image/jpeg,image/webp" aria-label={t('edit.uploadImage')} onChange={(e) => void upload(e.target.files?.[0])} />
          </label>
        </Card>
        <Card
          title={t('edit.details')}
          actions={
            editing ? null : (
              <Button variant="secondary" onClick={() => setEditing(true)}>
                {t('edit.editDetails')}
              </Button>
            )
          }
        >
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void save();
            }}
          >
            <div className="ct-radios" role="radiogroup" aria-label={t('edit.status')}>
              <label>
                <input type="radio" name="active" value="1" disabled={dis} checked={form.active === '1'} onChange={set('active')} /> {t('common.active')}
              </label>
              <label>
                <input type="radio" name="active" value="0" disabled={dis} checked={form.active === '0'} onChange={set('active')} /> {t('common.inactive')}
              </label>
            </div>
            <FormGrid>
              <SelectField label={t('common.category')} disabled={dis} value={form.catagory} onChange={set('catagory')}>
                {d.category.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </SelectField>
              <Field label={t('common.brand')} disabled={dis} list="ct-edit-brands" value={form.brand_name} onChange={set('brand_name')} />
              <datalist id="ct-edit-brands">
                {d.brands.map((b) => (
                  <option key={b} value={b} />
                ))}
              </datalist>
              <Field label={t('common.name')} disabled={dis} value={form.name} onChange={set('name')} />
              <Field label={t('common.mrp')} disabled={dis} type="number" step="0.01" value={form.mrp} onChange={set('mrp')} />
              <Field label={t('common.costPrice')} disabled={dis} type="number" step="0.01" value={form.cp} onChange={set('cp')} />
              <Field label={t('common.unit')} disabled={dis} list="ct-edit-units" value={form.unit} onChange={set('unit')} />
              <datalist id="ct-edit-units">
                {d.units.map((u) => (
                  <option key={u} value={u} />
                ))}
              </datalist>
              <Field label={t('common.qtyPerPiece')} disabled={dis} type="number" step="0.001" value={form.quantity_per_peice} onChange={set('quantity_per_peice')} />
              <Field label={t('common.stock')} disabled={dis} type="number" step="0.001" value={form.stock} onChange={set('stock')} hint={t('edit.stockHint')} />
              <Field label={t('edit.minStock')} disabled={dis} type="number" step="0.001" value={form.min_stock} onChange={set('min_stock')} />
              <Field label={t('edit.defaultStock')} disabled={dis} type="number" step="0.001" value={form.default_stock} onChange={set('default_stock')} />
              <Field label={t('edit.barcode')} disabled={dis} value={form.barcode} onChange={set('barcode')} />
              <TaxFields
                value={form as unknown as TaxForm}
                disabled={dis}
                errors={taxErrors}
                onChange={(k, v) => {
                  setForm((f) => ({ ...f, [k]: v }));
                  setTaxErrors((x) => ({ ...x, [k]: undefined }));
                }}
              />
              {d.specs.map((s) => (
                <Field
                  key={s.field_name}
                  label={s.field_name}
                  disabled={dis}
                  type={s.is_number ? 'number' : 'text'}
                  value={specs[s.field_name] ?? ''}
                  onChange={(e) => setSpecs((x) => ({ ...x, [s.field_name]: e.target.value }))}
                />
              ))}
            </FormGrid>
            {editing && (
              <FormActions>
                <Button
                  variant="ghost"
                  onClick={() => {
                    setForm(formOf(d));
                    setSpecs(d.specsValues);
                    setTaxErrors({});
                    setEditing(false);
                  }}
                >
                  {t('common.cancel')}
                </Button>
                <Button type="submit" busy={busy}>
                  {t('common.save')}
                </Button>
              </FormActions>
            )}
          </form>
        </Card>
      </div>
      <div style={{ marginTop: 20 }}>
        <Card title={t('edit.transactions')}>
          <div className="bk-table-wrap">
            <table className="bk-table" data-testid="history">
              <thead>
                <tr>
                  <th>{t('edit.buySell')}</th>
                  <th style={{ textAlign: 'right' }}>{t('edit.qty')}</th>
                  <th style={{ textAlign: 'right' }}>{t('edit.rate')}</th>
                  <th style={{ textAlign: 'right' }}>{t('common.stock')}</th>
                  <th>{t('edit.date')}</th>
                </tr>
              </thead>
              <tbody>
                {history.result.length === 0 && (
                  <tr>
                    <td colSpan={5} className="bk-table__empty">
                      {t('edit.noMovements')}
                    </td>
                  </tr>
                )}
                {history.result.map((h, i) => (
                  <tr key={i}>
                    <td>{h.type}</td>
                    <td style={{ textAlign: 'right' }}>{h.Qty}</td>
                    <td style={{ textAlign: 'right' }}>{money(h.Rate)}</td>
                    <td style={{ textAlign: 'right' }}>{h.Stock}</td>
                    <td>{new Date(h.Date).toLocaleString('en-IN')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {history.noOfPages > 1 && <Pager pageNo={history.page} noOfPages={history.noOfPages} onPage={(p) => void loadHistory(p)} base={0} />}
        </Card>
      </div>
    </>
  );
}
