import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { i18n, useTranslation } from '@bahi/i18n';
import { Button, Card, ExportButtons, Spinner, api, openDocument, useAlert } from '@bahi/ui-kit';
import { CONNECT_FAILED, PRINT_FAILED, money, moveRow } from './shared';

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
  const { t } = useTranslation('catalogue');
  const [rows, setRows] = useState<Row[] | null>(null);
  const [specField, setSpecField] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const [showCp, setShowCp] = useState(false);

  useEffect(() => {
    if (!params.get('category')) {
      alert.error(i18n.t('catalogue:common.selectCategory'));
      setRows([]);
      return;
    }
    api.get<{ list: Row[]; specField: string[]; filterDtls: { category: string } }>('/getProductListForStockBook', { query: Object.fromEntries(params) }).then(
      (r) => {
        setRows(r.list);
        setSpecField(r.specField);
        setTitle(r.filterDtls.category);
      },
      () => alert.error(CONNECT_FAILED()),
    );
  }, [params]);
  if (!rows) return <Spinner />;

  const move = (i: number, by: -1 | 1) => setRows((rs) => moveRow(rs ?? [], i, by));

  return (
    <>
      <div className="bk-page-title">
        <h1>{title ? t('stockBook.titleWith', { title }) : t('stockBook.title')}</h1>
        <div className="ct-row-actions">
          <label className="ct-check">
            <input type="checkbox" checked={showCp} onChange={(e) => setShowCp(e.target.checked)} /> {t('stockBook.showCp')}
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
              await openDocument(`/documents/stockbook?${q}`, { print: true }).catch(() => alert.error(PRINT_FAILED()));
            }}
          >
            {t('common.print')}
          </Button>
        </div>
      </div>
      <Card>
        <div className="bk-table-wrap">
          <table className="bk-table ct-sb" data-testid="stock-book">
            <thead>
              <tr>
                <th>{t('stockBook.order')}</th>
                <th>{t('common.id')}</th>
                <th>{t('common.name')}</th>
                <th>{t('common.brand')}</th>
                {specField.map((s) => (
                  <th key={s}>{s}</th>
                ))}
                <th style={{ textAlign: 'right' }}>{t('common.mrp')}</th>
                {showCp && <th style={{ textAlign: 'right' }}>{t('common.costPrice')}</th>}
                <th style={{ textAlign: 'right' }}>{t('common.stock')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={7 + specField.length} className="bk-table__empty">
                    {t('stockBook.empty')}
                  </td>
                </tr>
              )}
              {rows.map((r, i) => (
                <tr key={r.product_id}>
                  <td>
                    {/* The arrows are drawn by CSS (decoration; the aria-label names the move). */}
                    <Button variant="ghost" className="ct-move ct-move--up" aria-label={t('stockBook.moveUp', { name: r.product_name })} disabled={i === 0} onClick={() => move(i, -1)} />
                    <Button variant="ghost" className="ct-move ct-move--down" aria-label={t('stockBook.moveDown', { name: r.product_name })} disabled={i === rows.length - 1} onClick={() => move(i, 1)} />
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
