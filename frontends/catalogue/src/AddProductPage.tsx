import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, Field, FormActions, FormGrid, SelectField, api, errorMessage, useAlert } from '@bahi/ui-kit';
import { CONNECT_FAILED, type Named } from './shared';
import { TaxFields, taxFieldOfError, type TaxErrors } from './TaxFields';

/** /productItem/addProducts (001 section 5: every field required, quantity per piece defaults to 1). */
export function AddProductPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [opts, setOpts] = useState<{ brands: string[]; category: Named[]; units: string[] }>({ brands: [], category: [], units: [] });
  const [f, setF] = useState({ catagory: '', brand_name: '', name: '', mrp: '', cp: '', unit: '', per_peice_quantity: '1', tax: '', hsn_code: '', price_includes_tax: 'true', supply_type: 'taxable', barcode: '', opening_stock: '', min_stock: '', default_stock: '' });
  const [taxErrors, setTaxErrors] = useState<TaxErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.get<typeof opts>('/addProductPageDetails').then(setOpts, () => alert.error(CONNECT_FAILED()));
  }, []);
  // The counter's "Add product with this barcode" (issue 28) opens this page with ?barcode=.
  const [params] = useSearchParams();
  const barcodeParam = params.get('barcode');
  useEffect(() => {
    if (barcodeParam) setF((x) => ({ ...x, barcode: barcodeParam.slice(0, 40) }));
  }, [barcodeParam]);
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((x) => ({ ...x, [k]: e.target.value }));

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('add.title')}</h1>
      </div>
      <Card>
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setTaxErrors({});
            try {
              const r = await api.post<{ done: boolean; id: number }>('/createNewProduct', f);
              if (!r.done) throw new Error();
              alert.success(t('add.created', { id: String(r.id) }));
              navigate(`/productItem/${r.id}`);
            } catch (err) {
              const field = taxFieldOfError(err);
              if (field) setTaxErrors({ [field]: errorMessage(err, '') });
              alert.error(err instanceof Error && errorMessage(err, '') ? t('add.failedWith', { detail: errorMessage(err, '') }) : t('add.failed'));
            } finally {
              setBusy(false);
            }
          }}
        >
          <FormGrid>
            <SelectField label={t('common.category')} required value={f.catagory} onChange={set('catagory')}>
              <option value="">{t('add.selectCategory')}</option>
              {opts.category.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            <Field label={t('common.brand')} required list="ct-brands" value={f.brand_name} onChange={set('brand_name')} />
            <datalist id="ct-brands">
              {opts.brands.map((b) => (
                <option key={b} value={b} />
              ))}
            </datalist>
            <Field label={t('common.name')} required value={f.name} onChange={set('name')} />
            <Field label={t('common.mrp')} required type="number" step="0.01" min="0" value={f.mrp} onChange={set('mrp')} />
            <Field label={t('common.costPrice')} required type="number" step="0.01" min="0" value={f.cp} onChange={set('cp')} />
            <Field label={t('common.unit')} required list="ct-units" value={f.unit} onChange={set('unit')} />
            <datalist id="ct-units">
              {opts.units.map((u) => (
                <option key={u} value={u} />
              ))}
            </datalist>
            <Field label={t('common.qtyPerPiece')} required type="number" step="0.001" min="0.001" value={f.per_peice_quantity} onChange={set('per_peice_quantity')} />
            <Field label={t('add.barcode')} maxLength={40} value={f.barcode} onChange={set('barcode')} data-testid="add-barcode" />
            <Field label={t('add.openingStock')} type="number" step="0.001" min="0" value={f.opening_stock} onChange={set('opening_stock')} hint={t('add.openingHint')} data-testid="add-opening" />
            <Field label={t('add.minStock')} type="number" step="0.001" min="0" value={f.min_stock} onChange={set('min_stock')} data-testid="add-min" />
            <Field label={t('add.defaultStock')} type="number" step="0.001" min="0" value={f.default_stock} onChange={set('default_stock')} data-testid="add-default" />
            <TaxFields
              value={f}
              errors={taxErrors}
              onChange={(k, v) => {
                setF((x) => ({ ...x, [k]: v }));
                setTaxErrors((x) => ({ ...x, [k]: undefined }));
              }}
            />
            <SelectField label={t('add.supplyType')} value={f.supply_type} onChange={set('supply_type')} data-testid="add-supply">
              {(['taxable', 'nil', 'exempt', 'non_gst'] as const).map((k) => (
                <option key={k} value={k}>
                  {t(`add.supply.${k}`)}
                </option>
              ))}
            </SelectField>
          </FormGrid>
          <FormActions>
            <Button variant="ghost" onClick={() => navigate('/productItem')}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" busy={busy}>
              {t('add.submit')}
            </Button>
          </FormActions>
        </form>
      </Card>
    </>
  );
}
