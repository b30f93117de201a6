import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, ExportButtons, Field, PagedTable, SelectField, api, useAlert } from '@bahi/ui-kit';
import { CONNECT_FAILED, LevelBadge, STOCK_LEVELS, loadCategoryBrand, money, type Named, type ProductRow } from './shared';

interface Filters {
  category: string;
  brand: string;
  stock: string;
  active: string;
  /** Name, brand, barcode or product id (the API's text). */
  text: string;
}
const EMPTY: Filters = { category: '', brand: '', stock: '', active: '', text: '' };

/** Up to 8 products matching what is typed, for the search box's suggestions (from 2 characters, or any id). */
function useSuggestions(text: string): { product_id: number; product_name: string; brand_name: string }[] {
  const [rows, setRows] = useState<{ product_id: number; product_name: string; brand_name: string }[]>([]);
  useEffect(() => {
    const q = text.trim();
    if (q.length < 2 && !/^\d+$/.test(q)) return setRows([]);
    let live = true;
    const timer = setTimeout(() => {
      api
        .get<{ list: { product_id: number; product_name: string; brand_name: string }[] }>('/getProductList', { query: { pageNo: 0, text: q } })
        .then((r) => live && setRows(r.list.slice(0, 8)))
        .catch(() => undefined);
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);
  return rows;
}

/** /productItem: the product list with filters, totals, stock book and add. */
export function ProductListPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [opts, setOpts] = useState<{ brand: string[]; cat: Named[] }>({ brand: [], cat: [] });
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [totals, setTotals] = useState<{ totalStock: string; totalAmount: string } | null>(null);
  const suggestions = useSuggestions(draft.text);

  useEffect(() => {
    loadCategoryBrand().then(setOpts, () => alert.error(CONNECT_FAILED()));
  }, []);

  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  const printStockBook = () => {
    if (!draft.category) return alert.error(t('common.selectCategory'));
    const qs = new URLSearchParams(Object.entries(draft).filter(([k, v]) => v && k !== 'text') as [string, string][]);
    navigate(`/productItem/stockBookPrint?${qs}`);
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('list.title')}</h1>
        <div className="ct-row-actions">
          <ExportButtons list="products" query={{ ...applied }} onError={(m) => alert.error(m)} />
          <Button variant="secondary" onClick={() => navigate('/productItem/import')}>
            {t('list.import')}
          </Button>
          <Button variant="secondary" onClick={printStockBook}>
            {t('list.printStockBook')}
          </Button>
          <Button onClick={() => navigate('/productItem/addProducts')}>{t('list.add')}</Button>
        </div>
      </div>
      <section className="bk-card" style={{ marginBottom: 16 }}>
        <div className="bk-card__body">
          <form
            className="ct-filters"
            aria-label={t('list.filters')}
            onSubmit={(e) => {
              e.preventDefault();
              setApplied(draft);
            }}
          >
            <Field
              label={t('grid.search')}
              type="search"
              placeholder={t('list.searchPlaceholder')}
              list="ct-product-suggestions"
              value={draft.text}
              onChange={set('text')}
              data-testid="product-search"
            />
            <datalist id="ct-product-suggestions">
              {suggestions.map((p) => (
                <option key={p.product_id} value={p.product_name}>
                  {`#${p.product_id} ${p.brand_name}`}
                </option>
              ))}
            </datalist>
            <SelectField label={t('common.category')} value={draft.category} onChange={set('category')}>
              <option value="">{t('common.allCategories')}</option>
              {opts.cat.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            <SelectField label={t('common.brand')} value={draft.brand} onChange={set('brand')}>
              <option value="">{t('common.allBrands')}</option>
              {opts.brand.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </SelectField>
            <SelectField label={t('common.stock')} value={draft.stock} onChange={set('stock')}>
              <option value="">{t('common.anyStock')}</option>
              {STOCK_LEVELS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </SelectField>
            <SelectField label={t('common.active')} value={draft.active} onChange={set('active')}>
              <option value="">{t('list.activeAll')}</option>
              <option value="1">{t('common.active')}</option>
              <option value="0">{t('common.inactive')}</option>
            </SelectField>
            <Button type="submit">{t('common.filter')}</Button>
            <Button
              variant="ghost"
              onClick={() => {
                setDraft(EMPTY);
                setApplied(EMPTY);
              }}
            >
              {t('common.reset')}
            </Button>
          </form>
        </div>
      </section>
      <div className="ct-totals" data-testid="totals">
        <div className="ct-total">
          <span>{t('list.stockCount')}</span>
          <strong data-testid="total-stock">{totals ? totals.totalStock : '…'}</strong>
        </div>
        <div className="ct-total">
          <span>{t('list.stockValue')}</span>
          <strong data-testid="total-amount">{totals ? money(totals.totalAmount) : '…'}</strong>
        </div>
      </div>
      <PagedTable<ProductRow>
        title={t('list.table')}
        pageBase={0}
        deps={[applied]}
        rowUrl="/productItem"
        load={async (pageNo, signal) => {
          const r = await api.get<{ list: (ProductRow & { hide_url?: number })[]; noOfPages: number; totalStock: string; totalAmount: string }>('/getProductList', {
            query: { pageNo, ...applied },
            signal,
          });
          setTotals({ totalStock: r.totalStock, totalAmount: r.totalAmount });
          return { rows: r.list.map((p) => ({ ...p, id: p.product_id })), noOfPages: r.noOfPages };
        }}
        columns={[
          { key: 'product_id', header: t('common.id') },
          { key: 'product_name', header: t('common.name') },
          { key: 'brand_name', header: t('common.brand') },
          { key: 'category', header: t('common.category') },
          { key: 'mrp', header: t('common.mrp'), align: 'right', render: (r) => money(r.mrp) },
          { key: 'cp', header: t('list.cost'), align: 'right', render: (r) => money(r.cp) },
          { key: 'stock', header: t('common.stock'), align: 'right', render: (r) => `${r.stock} ${r.unit}` },
          { key: 'stock_level', header: t('list.level'), render: (r) => <LevelBadge level={r.stock_level} /> },
          { key: 'active', header: t('common.active'), render: (r) => (r.active ? t('common.yes') : t('common.no')) },
        ]}
        emptyText={t('list.empty')}
        testId="product-list"
      />
    </>
  );
}
