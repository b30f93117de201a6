import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button, ExportButtons, PagedTable, SelectField, api, useAlert } from '@bahi/ui-kit';
import { LevelBadge, STOCK_LEVELS, loadCategoryBrand, money, type Named, type ProductRow } from './shared';

interface Filters {
  category: string;
  brand: string;
  stock: string;
  active: string;
}
const EMPTY: Filters = { category: '', brand: '', stock: '', active: '' };

/** /productItem: the product list with filters, totals, stock book and add. */
export function ProductListPage() {
  const navigate = useNavigate();
  const alert = useAlert();
  const [opts, setOpts] = useState<{ brand: string[]; cat: Named[] }>({ brand: [], cat: [] });
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [totals, setTotals] = useState<{ totalStock: string; totalAmount: string } | null>(null);

  useEffect(() => {
    loadCategoryBrand().then(setOpts, () => alert.error('unable to connet to server'));
  }, []);

  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  const printStockBook = () => {
    if (!draft.category) return alert.error('Please Select A Category.');
    const qs = new URLSearchParams(Object.entries(draft).filter(([, v]) => v) as [string, string][]);
    navigate(`/productItem/stockBookPrint?${qs}`);
  };

  return (
    <>
      <div className="bk-page-title">
        <h1>Product Details</h1>
        <div className="ct-row-actions">
          <ExportButtons list="products" query={{ ...applied }} onError={(m) => alert.error(m)} />
          <Button variant="secondary" onClick={() => navigate('/productItem/import')}>
            Import
          </Button>
          <Button variant="secondary" onClick={printStockBook}>
            Print Stock Book
          </Button>
          <Button onClick={() => navigate('/productItem/addProducts')}>Add Product</Button>
        </div>
      </div>
      <section className="bk-card" style={{ marginBottom: 16 }}>
        <div className="bk-card__body">
          <form
            className="ct-filters"
            aria-label="Filters"
            onSubmit={(e) => {
              e.preventDefault();
              setApplied(draft);
            }}
          >
            <SelectField label="Category" value={draft.category} onChange={set('category')}>
              <option value="">All categories</option>
              {opts.cat.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </SelectField>
            <SelectField label="Brand" value={draft.brand} onChange={set('brand')}>
              <option value="">All brands</option>
              {opts.brand.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </SelectField>
            <SelectField label="Stock" value={draft.stock} onChange={set('stock')}>
              <option value="">Any stock</option>
              {STOCK_LEVELS.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </SelectField>
            <SelectField label="Active" value={draft.active} onChange={set('active')}>
              <option value="">Active and inactive</option>
              <option value="1">Active</option>
              <option value="0">Inactive</option>
            </SelectField>
            <Button type="submit">Filter</Button>
            <Button
              variant="ghost"
              onClick={() => {
                setDraft(EMPTY);
                setApplied(EMPTY);
              }}
            >
              Reset
            </Button>
          </form>
        </div>
      </section>
      <div className="ct-totals" data-testid="totals">
        <div className="ct-total">
          <span>Stock count</span>
          <strong data-testid="total-stock">{totals ? totals.totalStock : '…'}</strong>
        </div>
        <div className="ct-total">
          <span>Stock value (cost)</span>
          <strong data-testid="total-amount">{totals ? money(totals.totalAmount) : '…'}</strong>
        </div>
      </div>
      <PagedTable<ProductRow>
        title="Products"
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
          { key: 'product_id', header: 'ID' },
          { key: 'product_name', header: 'Name' },
          { key: 'brand_name', header: 'Brand' },
          { key: 'category', header: 'Category' },
          { key: 'mrp', header: 'MRP', align: 'right', render: (r) => money(r.mrp) },
          { key: 'cp', header: 'Cost', align: 'right', render: (r) => money(r.cp) },
          { key: 'stock', header: 'Stock', align: 'right', render: (r) => `${r.stock} ${r.unit}` },
          { key: 'stock_level', header: 'Level', render: (r) => <LevelBadge level={r.stock_level} /> },
          { key: 'active', header: 'Active', render: (r) => (r.active ? 'Yes' : 'No') },
        ]}
        emptyText="No products match these filters."
        testId="product-list"
      />
    </>
  );
}
