import type { BillFormat, SaleDocument, SaleGst, SoldLine } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { Code } from '../render/codes';
import { amount, date, fixed, qty, rupees, signed, unitQty, isPack } from '../render/format';
import { langOf, tOf, useT } from '../i18n';
import { Html } from './layout';
import type { CompanyView, PageSize } from './model';
import { type BillFigures, isWalkIn, tenders, UpiBlock } from './sale-docs';
import { type GstAccount, headRatesText, stateLine } from './tax-invoice';
import { isBillOfSupply, isExemptBillOfSupply, printedSupplyType, SUPPLY_MARK } from './supply';

const { add, money } = Money;

export type ThermalFormat = Exclude<BillFormat, 'a5'>;

/** Roll width and the printable width of the usual 58 / 80 mm thermal printers (mm). */
export const THERMAL_ROLLS: Record<ThermalFormat, { widthMm: number; printableMm: number; suffix: string }> = {
  'thermal-80': { widthMm: 80, printableMm: 72, suffix: '80mm' },
  'thermal-58': { widthMm: 58, printableMm: 48, suffix: '58mm' },
};

/**
 * The page of a receipt: the roll's width; the height is measured from the content when it is
 * rendered (PreparedDocument.fitHeight). 297 mm is only the layout's starting page.
 */
export function thermalSize(format: ThermalFormat): PageSize {
  return { widthMm: THERMAL_ROLLS[format].widthMm, heightMm: 297 };
}

/**
 * Receipt CSS: black only (thermal heads print no grey fills), margins as padding so the measured
 * height is the page's. One bold weight (700): each weight is another embedded font subset.
 */
export function thermalCss(format: ThermalFormat): string {
  const roll = THERMAL_ROLLS[format];
  const side = (roll.widthMm - roll.printableMm) / 2;
  const narrow = format === 'thermal-58';
  return `
html, body { width: ${roll.widthMm}mm; }
body { padding: 2mm ${side}mm 3mm; font-size: ${narrow ? '7.6pt' : '8.6pt'}; line-height: 1.28; color: #000; }
th { background: none; font-weight: 700; border-bottom: 0.25mm solid #000; }
td, th { padding: 0.3mm 0; border: none; }
.c { text-align: center; }
.r { text-align: right; white-space: nowrap; }
h1 { font-size: ${narrow ? '10pt' : '11.5pt'}; line-height: 1.2; margin: 0 0 0.5mm; overflow-wrap: anywhere; }
.title { font-weight: 700; font-size: ${narrow ? '8.6pt' : '9.6pt'}; margin-top: 1mm; letter-spacing: 0.3pt; }
.rule { border-top: 0.25mm dashed #000; margin: 1.2mm 0; }
.kv { display: flex; justify-content: space-between; gap: 2mm; }
.kv > :last-child { text-align: right; white-space: nowrap; }
.strong { font-weight: 700; }
.big { font-size: ${narrow ? '9.6pt' : '10.6pt'}; }
.line { margin: 0.6mm 0; break-inside: avoid; }
.line .name { overflow-wrap: anywhere; }
.line .meta { font-size: ${narrow ? '6.8pt' : '7.6pt'}; }
.small { font-size: ${narrow ? '6.6pt' : '7.4pt'}; }
table.sum th, table.sum td { font-size: ${narrow ? '6.6pt' : '7.6pt'}; text-align: right; white-space: nowrap; padding: 0.2mm 0 0.2mm 1mm; }
table.sum th:first-child, table.sum td:first-child { text-align: left; padding-left: 0; }
table.sum tfoot td { font-weight: 700; border-top: 0.25mm solid #000; }
.composition { border: 0.25mm solid #000; padding: 0.6mm 1mm; margin-top: 1mm; font-size: ${narrow ? '6.6pt' : '7.4pt'}; text-align: center; }
.cancelled { border: 0.4mm solid #000; padding: 0.8mm 1mm; margin: 1mm 0; font-weight: 700; text-align: center; }
.upi { display: flex; flex-direction: column; align-items: center; text-align: center; margin-top: 1mm; break-inside: avoid; }
.upi .qr { width: ${narrow ? '30mm' : '34mm'}; height: ${narrow ? '30mm' : '34mm'}; }
.upi .label { font-size: ${narrow ? '6.8pt' : '7.6pt'}; }
.thanks { margin-top: 1.5mm; }
`;
}

export function KV(props: { k: string; v: string; strong?: boolean; big?: boolean }) {
  const cls = [props.strong ? 'strong' : '', props.big ? 'big' : ''].filter(Boolean).join(' ');
  return (
    <div className={`kv${cls ? ` ${cls}` : ''}`}>
      <span>{props.k}</span>
      <span>{props.v}</span>
    </div>
  );
}

export const Rule = () => <div className="rule" />;

/** Shop header: name, address, phones (and the GSTIN in GST mode), centred. */
function Head(props: { name: string; address: string[]; phones: string; gstin?: string | null; state?: string | null }) {
  const t = useT();
  return (
    <div className="c">
      <h1>{props.name}</h1>
      {props.address.length ? <div>{props.address.join(', ')}</div> : null}
      {props.phones ? <div>{t('common.mob', { phones: props.phones })}</div> : null}
      {props.gstin ? (
        <div className="strong">
          {t('gst.gstin')} {props.gstin}
        </div>
      ) : null}
      {props.state ? (
        <div>
          {t('gst.state')} {props.state}
        </div>
      ) : null}
    </div>
  );
}

function Cancelled(props: { cancelled?: { date: string; reason: string } | null }) {
  const c = props.cancelled;
  const t = useT();
  return c ? <div className="cancelled">{t('thermal.cancelledOn', { date: date(c.date), reason: c.reason })}</div> : null;
}

/**
 * One sold line: its name (wrapped), then quantity x the rate charged = amount, so the figures
 * multiply out on the paper (Qty x (Rate - Disc) = Amount, as on the A5 bill).
 */
function Line(props: { n: number; line: SoldLine; meta?: string; inclusive?: boolean }) {
  const l = props.line;
  const t = useT();
  const disc = money(l.disc);
  // Packs and the discount on a small line of their own, so the figures row never wraps.
  const more = [isPack(l.per_peice_quantity) ? `${qty(l.quantity)} × ${qty(l.per_peice_quantity!)} ${l.unit}` : '', disc.isZero() ? '' : t('thermal.mrpLess', { rate: fixed(l.rate), disc: fixed(l.disc) })].filter(Boolean).join(' · ');
  return (
    <div className="line">
      <div className="name">
        {props.n}. {l.product_name}
      </div>
      {props.meta || more ? <div className="meta">{[props.meta, more].filter(Boolean).join(' · ')}</div> : null}
      <div className="kv">
        <span>
          {unitQty(l.quantity, l.per_peice_quantity)} {l.unit} × {fixed(l.price)}
          {props.inclusive ? '*' : ''}
        </span>
        <span>{amount(l.amount)}</span>
      </div>
    </div>
  );
}

function Footer(props: { upi: Code | null; upiId: string | null; due: string; dueDate: string | null | undefined; name: string }) {
  const t = useT();
  return (
    <>
      {props.dueDate ? <div className="c">{t('common.dueDate', { date: date(props.dueDate) })}</div> : null}
      <UpiBlock upi={props.upi} upiId={props.upiId} amount={props.due} />
      <div className="c thanks">{t('thermal.thanks')}</div>
      <div className="c small">{t('common.forCompany', { name: props.name })}</div>
    </>
  );
}

/** A simple-mode bill on a 58 or 80 mm roll: the A5 bill's content and figures. */
export function ThermalBillTemplate(props: { format: ThermalFormat; company: CompanyView; sale: SaleDocument; figures: BillFigures; upi: Code | null }) {
  const { company: c, sale, figures: f, format } = props;
  const walkIn = isWalkIn(sale.customer);
  const t = tOf(c);
  return (
    <Html title={`Bill ${sale.sale_id}`} size={thermalSize(format)} margin="0" lang={langOf(c)} css={thermalCss(format)}>
      <Head name={c.name} address={[c.add1, c.add2].filter(Boolean)} phones={[c.mob1, c.mob2].filter(Boolean).join(', ')} />
      <div className="c title">{t('bill.heading')}</div>
      <Rule />
      <KV k={t('bill.no', { id: sale.sale_id })} v={t('common.date', { date: date(sale.date) })} />
      {walkIn || !sale.customer ? null : (
        <div>
          {t('thermal.billTo')} <span className="strong">{sale.customer.name}</span>
          {sale.customer.mobile_no ? <div>{t('common.mob', { phones: sale.customer.mobile_no })}</div> : null}
        </div>
      )}
      <Cancelled cancelled={sale.cancelled} />
      <Rule />
      <KV k={t('thermal.itemHead')} v={t('common.amount')} strong />
      {sale.soldProducts.map((l, i) => (
        <Line key={i} n={i + 1} line={l} />
      ))}
      <Rule />
      <KV k={t('common.subtotal')} v={rupees(f.subtotal)} />
      {money(f.tax).isZero() ? null : <KV k={t('common.tax')} v={rupees(f.tax)} />}
      {money(f.shipping).isZero() ? null : <KV k={t('common.shipping')} v={rupees(f.shipping)} />}
      {money(f.discount).isZero() ? null : <KV k={t('common.discount')} v={`- ${rupees(f.discount)}`} />}
      {walkIn ? null : <KV k={t('common.previousDue')} v={rupees(f.previousDue)} />}
      <KV k={t('common.total')} v={rupees(f.total)} strong />
      <KV k={t('common.paid')} v={rupees(f.paid)} />
      {tenders(sale.payments, f.paid, t).map((r, i) => (
        <KV key={i} k={`  ${r.name}`} v={r.value} />
      ))}
      <KV k={t('common.due')} v={rupees(f.dueRounded, 0)} strong big />
      <Rule />
      <Footer upi={props.upi} upiId={c.upiId} due={f.dueRounded} dueDate={sale.due_date} name={c.name} />
    </Html>
  );
}

interface SumRow {
  key: string;
  taxable: string;
  cgst: string;
  sgst: string;
  igst: string;
}

/** Sums the frozen lines' taxable values and tax by a key (the rate or the HSN code), in first-seen order. */
function sumBy(gst: SaleGst, keyOf: (l: SaleGst['lines'][number]) => string): SumRow[] {
  const rows = new Map<string, SumRow>();
  for (const l of gst.lines) {
    const k = keyOf(l);
    const r = rows.get(k) ?? { key: k, taxable: '0', cgst: '0', sgst: '0', igst: '0' };
    rows.set(k, {
      key: k,
      taxable: add(r.taxable, l.taxable_value).toFixed(2),
      cgst: add(r.cgst, l.cgst).toFixed(2),
      sgst: add(r.sgst, l.sgst).toFixed(2),
      igst: add(r.igst, l.igst).toFixed(2),
    });
  }
  return [...rows.values()];
}

/**
 * A GST-mode bill on a roll: the tax invoice's fields (CGST Rule 46; Rule 49 for a bill of supply)
 * in a receipt's shape, from the figures sales froze into the sale. Per line the HSN and rate, then
 * the tax per rate and a compressed HSN summary (HSN, taxable value, tax) instead of the A4's columns.
 */
export function ThermalTaxInvoiceTemplate(props: { format: ThermalFormat; company: CompanyView; sale: SaleDocument; gst: SaleGst; account: GstAccount; upi: Code | null }) {
  const { company, sale, gst, account: a, format } = props;
  const taxed = !isBillOfSupply(gst);
  const s = gst.supplier;
  const r = gst.recipient;
  const walkIn = isWalkIn(sale.customer);
  const sgstName = gst.state_tax_name;
  const byRate = sumBy(gst, (l) => money(l.gst_rate).toFixed());
  const byHsn = sumBy(gst, (l) => l.hsn_code);
  const bySl = new Map(gst.lines.map((l) => [l.sl_no, l]));
  const tax = (x: SumRow) => add(x.cgst, x.sgst, x.igst).toFixed(2);
  const inclusive = taxed && gst.lines.some((l) => l.price_includes_tax);
  const shipping = money(sale.shipping);
  const discount = money(sale.summery_discount);
  const t = tOf(company);
  return (
    <Html title={`${taxed ? 'Tax Invoice' : 'Bill of Supply'} ${gst.invoice_no}`} size={thermalSize(format)} margin="0" lang={langOf(company)} css={thermalCss(format)}>
      <Head name={s.name} address={s.address} phones={[company.mob1, company.mob2].filter(Boolean).join(', ')} gstin={s.gstin} state={stateLine(s)} />
      <div className="c title">{taxed ? t('bill.heading') : t('thermal.billOfSupplyHeading')}</div>
      {gst.document === 'bill-of-supply' ? <div className="composition">{t('gst.compositionLine')}</div> : null}
      {isExemptBillOfSupply(gst) ? <div className="composition">{t('gst.exemptLine')}</div> : null}
      <Rule />
      <KV k={t('gst.invoiceNo')} v={gst.invoice_no} strong />
      <KV k={t('thermal.date')} v={date(gst.invoice_date)} />
      <KV k={t('gst.placeOfSupply')} v={`${gst.place_of_supply_name} (${gst.place_of_supply})`} />
      {/* A walk-in prints no buyer, unless their particulars were typed (Rule 46(e)). */}
      {walkIn && !gst.b2b && !r.address.length && !r.state_code ? null : (
        <div>
          {gst.b2b ? t('thermal.billToRegistered') : t('thermal.billTo')} <span className="strong">{r.name}</span>
          {r.address.length ? <div>{r.address.join(', ')}</div> : null}
          {gst.b2b && r.gstin ? (
            <div>
              {t('gst.gstin')} {r.gstin}
            </div>
          ) : null}
          {stateLine(r) ? (
            <div>
              {t('gst.state')} {stateLine(r)}
            </div>
          ) : null}
        </div>
      )}
      <Cancelled cancelled={sale.cancelled} />
      <Rule />
      <KV k={t('thermal.itemHead')} v={t('common.amount')} strong />
      {sale.soldProducts.map((l, i) => {
        const g = bySl.get(l.sl_no ?? i + 1);
        // Each head's rate (Rule 46: rate and amount of each tax), not only the combined one.
        // A nil-rated, exempt or non-GST line prints its type instead of heads (Table 8).
        const mark = g ? SUPPLY_MARK[printedSupplyType(gst, g)] : null;
        const meta = [`HSN ${g?.hsn_code ?? l.hsn_code}`, mark ? t(mark) : taxed && g ? headRatesText(g.gst_rate, gst.inter_state, sgstName) : ''].filter(Boolean).join(' · ');
        return <Line key={i} n={i + 1} line={l} meta={meta} inclusive={taxed && g?.price_includes_tax} />;
      })}
      <Rule />
      {inclusive ? <div className="small">{t('thermal.rateIncludesGst')}</div> : null}
      {!shipping.isZero() || !discount.isZero() ? (
        <div className="small">
          {t('thermal.spreadNote', {
            parts: [!shipping.isZero() ? t('thermal.shippingPart', { amount: rupees(shipping) }) : '', !discount.isZero() ? t('gst.discountPart', { amount: rupees(discount) }) : ''].filter(Boolean).join(' '),
            taxed: taxed ? 'yes' : 'no',
          })}
        </div>
      ) : null}
      <KV k={taxed ? t('gst.taxableValue') : t('gst.totalValue')} v={rupees(gst.taxable_total)} />
      {taxed && !gst.inter_state ? <KV k="CGST" v={rupees(gst.cgst_total)} /> : null}
      {taxed && !gst.inter_state ? <KV k={sgstName} v={rupees(gst.sgst_total)} /> : null}
      {taxed && gst.inter_state ? <KV k="IGST" v={rupees(gst.igst_total)} /> : null}
      <KV k={t('gst.roundOff')} v={signed(gst.round_off)} />
      <KV k={t('gst.invoiceValue')} v={rupees(gst.invoice_value)} strong big />
      {taxed ? (
        <>
          <Rule />
          <table className="sum">
            <thead>
              <tr>
                <th>{t('thermal.gstPct')}</th>
                <th>{t('thermal.taxable')}</th>
                {gst.inter_state ? <th>IGST</th> : <th>CGST</th>}
                {gst.inter_state ? null : <th>{sgstName}</th>}
              </tr>
            </thead>
            <tbody>
              {byRate.map((x) => (
                <tr key={x.key}>
                  <td>{x.key}%</td>
                  <td>{amount(x.taxable)}</td>
                  {gst.inter_state ? <td>{amount(x.igst)}</td> : <td>{amount(x.cgst)}</td>}
                  {gst.inter_state ? null : <td>{amount(x.sgst)}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <Rule />
      <table className="sum">
        <thead>
          <tr>
            <th>{t('common.hsn')}</th>
            <th>{taxed ? t('thermal.taxable') : t('gst.value')}</th>
            {taxed ? <th>{t('common.tax')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {byHsn.map((x) => (
            <tr key={x.key}>
              <td>{x.key}</td>
              <td>{amount(x.taxable)}</td>
              {taxed ? <td>{amount(tax(x))}</td> : null}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td>{t('common.total')}</td>
            <td>{amount(gst.taxable_total)}</td>
            {taxed ? <td>{amount(gst.tax_total)}</td> : null}
          </tr>
        </tfoot>
      </table>
      <div className="small">
        {t('gst.reverseCharge')} {gst.reverse_charge ? t('common.yes') : t('common.no')}
      </div>
      <Rule />
      <KV k={t('gst.thisInvoice')} v={rupees(a.invoiceValue)} />
      {walkIn ? null : <KV k={t('common.previousDue')} v={rupees(a.previousDue)} />}
      <KV k={t('common.paid')} v={rupees(a.paid)} />
      {tenders(sale.payments, a.paid, t).map((r, i) => (
        <KV key={i} k={`  ${r.name}`} v={r.value} />
      ))}
      <KV k={t('gst.balanceDue')} v={rupees(a.dueRounded, 0)} strong big />
      <Rule />
      <Footer upi={props.upi} upiId={company.upiId} due={a.dueRounded} dueDate={sale.due_date} name={s.name} />
    </Html>
  );
}
