import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, Card, ExportButtons, Spinner, api, openDocument, useAlert } from '@bahi/ui-kit';
import { PRINT_FAILED, money, moveRow } from './shared';

interface Row {
  product_id: number;
  product_name: string;
  brand_name: string;
  unit: string;
  mrp: string;
  cp: string;
  stock: string;
  spec_1: string;
  spec_2: string;
  spec_3: string;
}

/** /productItem/stockBookPrint?category&brand&stock&active: reorder rows, show cost price, print. */
export function StockBookPrintPage() {
  const [params] = useSearchParams();
  const alert = useAlert();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [specField, setSpecField] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const [showCp, setShowCp] = useState(false);

  useEffect(() => {
    if (!params.get('category')) {
      alert.error('Please Select A Category.');
      setRows([]);
      return;
    }
    api.get<{ list: Row[]; specField: string[]; filterDtls: { category: string } }>('/getProductListForStockBook', { query: Object.fromEntries(params) }).then(
      (r) => {
        setRows(r.list);
        setSpecField(r.specField);
        setTitle(r.filterDtls.category);
      },
      () => alert.error('unable to connet to server'),
    );
  }, [params]);
  if (!rows) return <Spinner />;

  const move = (i: number, by: -1 | 1) => setRows((rs) => moveRow(rs ?? [], i, by));

  return (
    <>
      <div className="bk-page-title">
        <h1>Stock Book{title ? `: ${title}` : ''}</h1>
        <div className="ct-row-actions">
          <label className="ct-check">
            <input type="checkbox" checked={showCp} onChange={(e) => setShowCp(e.target.checked)} /> Show Cost Price
          </label>
          <ExportButtons
            list="stockBook"
            query={Object.fromEntries(['category', 'brand', 'stock', 'active'].map((k) => [k, params.get(k) && params.get(k) !== 'all' ? params.get(k)! : undefined]))}
            onError={(m) => alert.error(m)}
          />
          <Button
            onClick={async () => {
              const q = new URLSearchParams();
              // 'all' (or empty) means no filter.
              for (const k of ['category', 'brand', 'stock', 'active']) {
                const v = params.get(k);
                if (v && v !== 'all') q.set(k, v);
              }
              q.set('order', rows.map((r) => r.product_id).join(','));
              if (showCp) q.set('cost', '1');
              await openDocument(`/documents/stockbook?${q}`, { print: true }).catch(() => alert.error(PRINT_FAILED));
            }}
          >
            Print
          </Button>
        </div>
      </div>
      <Card>
        <div className="bk-table-wrap">
          <table className="bk-table ct-sb" data-testid="stock-book">
            <thead>
              <tr>
                <th>Order</th>
                <th>ID</th>
                <th>Name</th>
                <th>Brand</th>
                {specField.map((s) => (
                  <th key={s}>{s}</th>
                ))}
                <th style={{ textAlign: 'right' }}>MRP</th>
                {showCp && <th style={{ textAlign: 'right' }}>Cost Price</th>}
                <th style={{ textAlign: 'right' }}>Stock</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={7 + specField.length} className="bk-table__empty">
                    No products in this stock book.
                  </td>
                </tr>
              )}
              {rows.map((r, i) => (
                <tr key={r.product_id}>
                  <td>
                    <Button variant="ghost" className="ct-move" aria-label={`Move ${r.product_name} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                      ▲
                    </Button>
                    <Button variant="ghost" className="ct-move" aria-label={`Move ${r.product_name} down`} disabled={i === rows.length - 1} onClick={() => move(i, 1)}>
                      ▼
                    </Button>
                  </td>
                  <td>{r.product_id}</td>
                  <td>{r.product_name}</td>
                  <td>{r.brand_name}</td>
                  {specField.map((_, k) => (
                    <td key={k}>{[r.spec_1, r.spec_2, r.spec_3][k]}</td>
                  ))}
                  <td style={{ textAlign: 'right' }}>{money(r.mrp)}</td>
                  {showCp && <td style={{ textAlign: 'right' }}>{money(r.cp)}</td>}
                  <td style={{ textAlign: 'right' }}>
                    {r.stock} {r.unit}
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
