import './i18n';
import { useEffect, useState } from 'react';
import { Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Field, Pager, SelectField, Spinner, api, useAlert } from '@bahi/ui-kit';
import { CONNECT_FAILED, LevelBadge, STOCK_LEVELS, money, type Named, type ProductRow } from './shared';
import './catalogue.css';

interface Page {
  product_list: ProductRow[];
  fields: { field_name: string; is_number: boolean }[];
  catagory: Named[];
  brands: string[];
  cat_id: number | null;
  pageNumber: number;
  pageCount: number;
}

/** /product/{cat}: the product grid of a category ('null' = all) with filters. */
function ProductGrid() {
  const { cat = 'null' } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [data, setData] = useState<Page | null>(null);
  const [draft, setDraft] = useState<Record<string, string>>({});

  useEffect(() => {
    setDraft(Object.fromEntries(params));
    api.get<Page>(`/productPage/${cat}`, { query: Object.fromEntries(params) }).then(setData, () => alert.error(CONNECT_FAILED()));
  }, [cat, params]);
  if (!data) return <Spinner />;
  const page = data.pageNumber;
  const go = (p: number) => setParams({ ...Object.fromEntries(params), pageNumber: String(p) });

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('grid.title')}</h1>
      </div>
      <section className="bk-card" style={{ marginBottom: 16 }}>
        <div className="bk-card__body">
          <form
            className="ct-filters"
            onSubmit={(e) => {
              e.preventDefault();
              setParams(Object.fromEntries(Object.entries(draft).filter(([k, v]) => v && k !== 'pageNumber')));
            }}
          >
            <SelectField label={t('common.category')} value={cat} onChange={(e) => navigate(`/product/${e.target.value}`)}>
              <option value="null">{t('common.allCategories')}</option>
              {data.catagory.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            <Field label={t('grid.search')} value={draft.text ?? ''} onChange={(e) => setDraft((d) => ({ ...d, text: e.target.value }))} placeholder={t('grid.searchPlaceholder')} />
            <SelectField label={t('common.brand')} value={draft.brand ?? ''} onChange={(e) => setDraft((d) => ({ ...d, brand: e.target.value }))}>
              <option value="">{t('common.allBrands')}</option>
              {data.brands.map((b) => (
                <option key={b}>{b}</option>
              ))}
            </SelectField>
            <SelectField label={t('common.stock')} value={draft.stock ?? ''} onChange={(e) => setDraft((d) => ({ ...d, stock: e.target.value }))}>
              <option value="">{t('common.anyStock')}</option>
              {STOCK_LEVELS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </SelectField>
            {data.fields.map((f) => (
              <Field key={f.field_name} label={f.field_name} value={draft[f.field_name] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [f.field_name]: e.target.value }))} />
            ))}
            <Button type="submit">{t('common.filter')}</Button>
            <Button variant="ghost" onClick={() => setParams({})}>
              {t('common.reset')}
            </Button>
          </form>
        </div>
      </section>
      {data.product_list.length === 0 ? (
        <div className="bk-card bk-card__body bk-muted">{t('grid.empty')}</div>
      ) : (
        <div className="ct-grid" data-testid="product-grid">
          {data.product_list.map((p) => (
            <article key={p.product_id} className="ct-tile" onClick={() => navigate(`/productItem/${p.product_id}`)}>
              <img src={p.image_url} alt="" loading="lazy" />
              <div className="ct-tile__body">
                <span className="ct-tile__name">
                  {p.product_id} : {p.product_name}
                </span>
                <span className="ct-tile__meta">
                  <span>{p.brand_name}</span>
                  <LevelBadge level={p.stock_level} />
                </span>
                <span className="ct-tile__meta">
                  <strong>{money(p.mrp)}</strong>
                  <span>
                    {p.stock} {p.unit}
                  </span>
                </span>
              </div>
            </article>
          ))}
        </div>
      )}
      {data.pageCount > 1 && <Pager className="ct-grid-pager" pageNo={page} noOfPages={data.pageCount} onPage={go} base={0} />}
    </>
  );
}

/** Mounted by the shell at /product/*. */
export default function ProductsApp() {
  return (
    <Routes>
      <Route index element={<ProductGrid />} />
      <Route path=":cat" element={<ProductGrid />} />
    </Routes>
  );
}
