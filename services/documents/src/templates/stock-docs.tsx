import type { LabelDetailsReply, StockBookReply, StockBookRow } from '@bahi/contracts';
import type { Code } from '../render/codes';
import { date, fixed, qty, rupees } from '../render/format';
import { langOf, tOf, useT } from '../i18n';
import { CompanyHeader, Html, Svg } from './layout';
import { A4, type CompanyView, type PageSize } from './model';

/** Label sheet layouts of spec 001 §9, on A4. */
export const LABEL_LAYOUTS = {
  /** Stock book labels: 12 per page, 2 columns by 6 rows, CODE128. */
  stockbook: { columns: 2, rows: 6 },
  /** Packet labels: 3 per row, 10 rows. */
  packet: { columns: 3, rows: 10 },
  /** Purchase labels: 4 per row, 40 per page. */
  purchase: { columns: 4, rows: 10 },
} as const;
export type LabelLayout = keyof typeof LABEL_LAYOUTS;

/** Thermal label rolls (issue 32): one label per page, the page the label's size, `size=50x25`. */
export const LABEL_ROLLS: Record<string, PageSize> = {
  '50x25': { widthMm: 50, heightMm: 25 },
  '38x25': { widthMm: 38, heightMm: 25 },
};

export function labelsPerPage(layout: LabelLayout): number {
  const l = LABEL_LAYOUTS[layout];
  return l.columns * l.rows;
}

/** One printed label. */
export interface LabelView {
  details: LabelDetailsReply;
  /** Quantity per label (packet contents), or null to leave it off. */
  quantity: string | null;
  barcode: Code | null;
  qr: Code | null;
}

function sheetCss(layout: LabelLayout, marginMm: number): string {
  const l = LABEL_LAYOUTS[layout];
  const w = (A4.widthMm - 2 * marginMm) / l.columns;
  // A millimetre to spare so rounding never spills a sheet onto a blank page.
  const h = (A4.heightMm - 2 * marginMm - 1) / l.rows;
  return `
.sheet { display: grid; grid-template-columns: repeat(${l.columns}, ${w}mm); grid-auto-rows: ${h}mm; break-after: page; }
.sheet:last-child { break-after: auto; }
.lbl { overflow: hidden; padding: 1.2mm 2mm; border: 0.1mm dashed #bbb; display: flex; flex-direction: column; }
.lbl .name { font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.lbl .feat { white-space: nowrap; overflow: hidden; }
.lbl .code { flex: 1; min-height: 0; display: flex; align-items: flex-end; justify-content: center; }
.lbl .code svg.barcode { max-width: 100%; max-height: 100%; }
.lbl.packet { font-size: 7pt; padding: 0.8mm 1.5mm; }
.lbl.purchase { font-size: 6.5pt; padding: 0.8mm 1mm; flex-direction: row; gap: 1mm; }
.lbl.purchase .text { flex: 1; min-width: 0; }
.lbl.purchase .qr { width: 17mm; height: 17mm; flex: none; align-self: center; }
.lbl .co { font-size: 6.5pt; color: #555; white-space: nowrap; overflow: hidden; }
`;
}

function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out.length ? out : [[]];
}

function Features(props: { d: LabelDetailsReply }) {
  return (
    <>
      {props.d.features.slice(0, 3).map((f, i) => (
        <div className="feat" key={i}>
          {f.alias || f.field_name}: {f.value}
        </div>
      ))}
    </>
  );
}

function ProductLabel(props: { label: LabelView; layout: LabelLayout; company: CompanyView }) {
  const { details: d, quantity, barcode, qr } = props.label;
  const p = d.product;
  const t = useT();
  if (props.layout === 'purchase') {
    return (
      <div className="lbl purchase">
        <div className="text">
          <div className="name">{p.product_name}</div>
          <div>
            {p.brand_name} · {t('labels.id', { id: p.product_id })}
          </div>
          <Features d={d} />
          <div>
            {t('labels.mrp')} <strong>{rupees(p.mrp)}</strong>
            {quantity ? ` · ${qty(quantity)} ${p.unit}` : ''}
          </div>
        </div>
        {qr ? <Svg className="qr" markup={qr.svg} /> : null}
      </div>
    );
  }
  const packet = props.layout === 'packet';
  return (
    <div className={packet ? 'lbl packet' : 'lbl'}>
      {packet ? null : <div className="co">{props.company.name}</div>}
      <div className="name">{p.product_name}</div>
      {packet ? null : <Features d={d} />}
      <div>
        {t('labels.mrp')} <strong>{rupees(p.mrp)}</strong>
        {quantity ? ` · ${t('labels.qty', { qty: qty(quantity), unit: p.unit })}` : ''}
      </div>
      {barcode ? <Svg className="code" markup={barcode.svg} /> : null}
    </div>
  );
}

export function LabelsTemplate(props: { company: CompanyView; labels: LabelView[]; layout: LabelLayout; title: string }) {
  const margin = props.layout === 'stockbook' ? 6 : 5;
  const pages = chunk(props.labels, labelsPerPage(props.layout));
  return (
    <Html title={props.title} size={A4} margin={`${margin}mm`} lang={langOf(props.company)} css={sheetCss(props.layout, margin)}>
      {pages.map((labels, i) => (
        <section className="sheet" key={i}>
          {labels.map((l, j) => (
            <ProductLabel key={j} label={l} layout={props.layout} company={props.company} />
          ))}
        </section>
      ))}
    </Html>
  );
}

/** 7pt text and a barcode filling what is left of 25 mm; the 38 mm roll drops the brand line. */
function rollCss(size: PageSize): string {
  return `
.roll { width: ${size.widthMm}mm; height: ${size.heightMm}mm; box-sizing: border-box; padding: 1mm 1.5mm; overflow: hidden;
  display: flex; flex-direction: column; break-after: page; font-size: 7pt; line-height: 1.15; }
.roll:last-child { break-after: auto; }
.roll .name { font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.roll .line { white-space: nowrap; overflow: hidden; }
.roll .code { flex: 1; min-height: 0; display: flex; align-items: center; justify-content: center; }
.roll .code svg { max-width: 100%; max-height: 100%; }
`;
}

/** Labels on a roll: one label a page, each with the name, MRP (and quantity) and the CODE128 of its code. */
export function RollLabelsTemplate(props: { company: CompanyView; labels: LabelView[]; size: PageSize; title: string }) {
  const t = tOf(props.company);
  const narrow = props.size.widthMm < 45;
  return (
    <Html title={props.title} size={props.size} margin="0" lang={langOf(props.company)} css={rollCss(props.size)}>
      {props.labels.map((l, i) => {
        const p = l.details.product;
        return (
          <section className="roll" key={i}>
            <div className="name">{p.product_name}</div>
            {narrow ? null : (
              <div className="line">
                {p.brand_name} · {t('labels.id', { id: p.product_id })}
              </div>
            )}
            <div className="line">
              {t('labels.mrp')} <strong>{rupees(p.mrp)}</strong>
              {l.quantity ? ` · ${t('labels.qty', { qty: qty(l.quantity), unit: p.unit })}` : ''}
            </div>
            {l.barcode ? <Svg className="code" markup={l.barcode.svg} /> : null}
          </section>
        );
      })}
    </Html>
  );
}

const STOCK_CSS = `
.meta { display: flex; justify-content: space-between; margin: 2mm 0; }
td, th { font-size: 8.5pt; }
tr { break-inside: avoid; }
`;

/** The stock book rows in the order the user arranged (ids first, in order; the rest after). */
export function arrangeRows(rows: StockBookRow[], order: number[]): StockBookRow[] {
  if (!order.length) return rows;
  const byId = new Map(rows.map((r) => [r.product_id, r]));
  const first = order.map((id) => byId.get(id)).filter((r): r is StockBookRow => !!r);
  const listed = new Set(first.map((r) => r.product_id));
  return [...first, ...rows.filter((r) => !listed.has(r.product_id))];
}

export function StockBookTemplate(props: { company: CompanyView; book: StockBookReply; rows: StockBookRow[]; showCost: boolean; printedOn: string }) {
  const { book, rows, showCost } = props;
  const t = tOf(props.company);
  return (
    <Html title={`Stock book ${book.category.name}`} size={A4} lang={langOf(props.company)} css={STOCK_CSS}>
      <CompanyHeader
        company={props.company}
        right={
          <>
            <h2>{t('stockbook.heading')}</h2>
            <div>{date(props.printedOn)}</div>
          </>
        }
      />
      <div className="meta">
        <span>
          {t('stockbook.category')} <strong>{book.category.name}</strong>
        </span>
        <span>{t('common.products', { count: rows.length })}</span>
      </div>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>{t('stockbook.id')}</th>
            <th>{t('stockbook.product')}</th>
            <th>{t('stockbook.brand')}</th>
            {book.specField.map((f) => (
              <th key={f}>{f}</th>
            ))}
            <th className="num">{t('stockbook.stock')}</th>
            <th className="num">{t('labels.mrp')}</th>
            {showCost ? <th className="num">{t('stockbook.cost')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.product_id}>
              <td>{i + 1}</td>
              <td>{r.product_id}</td>
              <td>{r.product_name}</td>
              <td>{r.brand_name}</td>
              {book.specField.map((f, k) => (
                <td key={f}>{r.specs[k] ?? ''}</td>
              ))}
              <td className="num">
                {qty(r.stock)} {r.unit}
              </td>
              <td className="num">{fixed(r.mrp)}</td>
              {showCost ? <td className="num">{fixed(r.cp)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </Html>
  );
}
