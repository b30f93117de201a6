import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { Button, Card, Field, FormActions, SelectField, Spinner, api, fetchDocument, openDocument, useAlert } from '@bahi/ui-kit';
import { CONNECT_FAILED, PRINT_FAILED, money } from './shared';

interface Label {
  product: { product_id: number; product_name: string; brand_name: string; mrp: string; unit: string; per_peice_quantity: string; barcode: string };
  features: { field_name: string; alias: string; value: string }[];
  code: string;
}

/** /productItem/{id}/label: Stock Book or Packet labels; stock book labels print 12 a page, packets 30. */
export function LabelPage() {
  const { id } = useParams();
  const alert = useAlert();
  const { t } = useTranslation('catalogue');
  const [l, setL] = useState<Label | null>(null);
  const [mode, setMode] = useState<'stock' | 'packet'>('stock');
  const [count, setCount] = useState('12');
  const [qty, setQty] = useState('1');
  const [shown, setShown] = useState({ count: 12, qty: '1' });
  // '' = the spec's A4 sheets; 50x25 / 38x25 = a thermal label roll, one label a page.
  const [size, setSize] = useState('');
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);

  useEffect(() => {
    api.get<Label>(`/getLabelDetails/${id}`).then(setL, () => alert.error(CONNECT_FAILED()));
  }, [id]);
  const query = (count: number) =>
    new URLSearchParams({ mode: mode === 'stock' ? 'stockbook' : 'packet', count: String(count), qty: shown.qty, ...(size ? { size } : {}) });
  // The preview is one label rendered by the documents service itself: the barcode and text exactly as printed.
  useEffect(() => {
    let url: string | null = null;
    let live = true;
    fetchDocument(`/documents/labels/${id}?${query(1)}`)
      .then((d) => {
        if (!live) return;
        url = URL.createObjectURL(d.blob);
        setPdfUrl(url);
      })
      .catch(() => live && setPdfUrl(null));
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id, mode, size, shown.qty]);
  if (!l) return <Spinner />;

  return (
    <>
      <div className="bk-page-title">
        <h1>{t('label.title', { name: l.product.product_name })}</h1>
      </div>
      <Card>
        <div className="ct-mode" role="radiogroup" aria-label={t('label.mode')}>
          <label>
            <input type="radio" name="mode" checked={mode === 'stock'} onChange={() => setMode('stock')} /> {t('label.stockBook')}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === 'packet'} onChange={() => setMode('packet')} /> {t('label.packet')}
          </label>
        </div>
        <div className="ct-filters">
          <SelectField label={t('label.size')} value={size} onChange={(e) => setSize(e.target.value)} data-testid="label-size">
            <option value="">{t('label.sizeA4')}</option>
            <option value="50x25">{t('label.sizeRoll', { w: '50', h: '25' })}</option>
            <option value="38x25">{t('label.sizeRoll', { w: '38', h: '25' })}</option>
          </SelectField>
          <Field label={t('label.count')} type="number" min="1" max="500" value={count} onChange={(e) => setCount(e.target.value)} />
          <Field label={t('label.qty')} type="number" min="0" step="0.001" value={qty} onChange={(e) => setQty(e.target.value)} />
          <Button
            variant="secondary"
            onClick={() => {
              const n = Number(count);
              if (!Number.isInteger(n) || n < 1 || n > 500) return alert.error(t('label.countRange'));
              if (!(Number(qty) > 0)) return alert.error(t('label.qtyPositive'));
              setShown({ count: n, qty });
            }}
          >
            {t('label.update')}
          </Button>
          <Button
            onClick={async () => {
              await openDocument(`/documents/labels/${l.product.product_id}?${query(shown.count)}`, { print: true }).catch(() => alert.error(PRINT_FAILED()));
            }}
          >
            {t('common.print')}
          </Button>
        </div>
        <p className="bk-muted">
          {size ? t('label.rollHelp', { size }) : mode === 'stock' ? t('label.stockHelp') : t('label.packetHelp')}
        </p>
        {pdfUrl && (
          <object className={size ? 'ct-label-pdf ct-label-pdf--roll' : 'ct-label-pdf'} data={`${pdfUrl}#toolbar=0&navpanes=0`} type="application/pdf" aria-label={t('label.asPrinted')} data-testid="label-pdf-preview">
            {t('label.asPrinted')}
          </object>
        )}
        <div className="ct-label-preview" data-testid="label-preview">
          {Array.from({ length: Math.min(shown.count, 6) }, (_, i) => (
            <div className="ct-label" key={i}>
              <strong>{l.product.product_name}</strong>
              <div>
                {t('label.mrpLine', { brand: l.product.brand_name, mrp: money(l.product.mrp), unit: l.product.unit })}
              </div>
              {l.features.map((f) => (
                <div key={f.field_name}>
                  {f.alias}: {f.value}
                </div>
              ))}
              <div>
                {t('label.qtyLine', { qty: shown.qty, code: l.code })}
              </div>
            </div>
          ))}
        </div>
        {shown.count > 6 && <p className="bk-muted">{t('label.more', { count: shown.count - 6 })}</p>}
        <FormActions>
          <span />
        </FormActions>
      </Card>
    </>
  );
}
