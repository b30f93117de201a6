import type { GstLine, GstParty, SaleDocument, SaleGst, SoldLine } from '@bahi/contracts';
import { hsnSummary, type ComputedInvoice, type HsnSummaryRow } from '@bahi/gst';
import { Money } from '@bahi/service-kit';
import type { Code } from '../render/codes';
import { amount, date, fixed, rupees, signed, unitQty } from '../render/format';
import { inWords, langOf, tOf, useT } from '../i18n';
import { Html } from './layout';
import { A4, type CompanyView } from './model';
import { billFigures, CANCELLED_CSS, CancelledMark, EwaybillLine, isWalkIn, QtyCell, Row, PaidRows, UpiBlock } from './sale-docs';
import { isBillOfSupply, isExemptBillOfSupply, printedSupplyType, SUPPLY_MARK } from './supply';

const { add, money } = Money;

/** The words a composition dealer prints at the top of every bill of supply (CGST Rule 5(1)(g)). */
export const COMPOSITION_LINE = 'Composition taxable person, not eligible to collect tax on supplies';

/** The account below the invoice: the previous due and payments never enter the invoice value. */
export interface GstAccount {
  invoiceValue: string;
  previousDue: string;
  total: string;
  paid: string;
  due: string;
  /** What the customer is asked to pay (and what the UPI QR carries): to the rupee. */
  dueRounded: string;
}

export function gstAccount(sale: SaleDocument, gst: SaleGst): GstAccount {
  // The simple bill's account with the invoice value as its only amount: the same rounding of the due.
  const f = billFigures({ subtotal: gst.invoice_value, tax: '0', shipping: '0', summery_discount: '0', previousDue: sale.previousDue, paid: sale.paid, customer: sale.customer });
  return { invoiceValue: f.subtotal, previousDue: f.previousDue, total: f.total, paid: f.paid, due: f.due, dueRounded: f.dueRounded };
}

/** The frozen invoice as @bahi/gst's ComputedInvoice, so the HSN summary is the library's own grouping. */
function asComputed(gst: SaleGst, lines: SoldLine[]): ComputedInvoice {
  const bySl = new Map(lines.map((l, i) => [l.sl_no ?? i + 1, l]));
  return {
    document: gst.document,
    placeOfSupply: gst.place_of_supply,
    companyState: gst.supplier.state_code ?? gst.place_of_supply,
    interState: gst.inter_state,
    stateTaxName: gst.state_tax_name,
    registeredCustomer: gst.b2b,
    lines: gst.lines.map((l) => ({
      hsn: l.hsn_code,
      uqc: l.uqc,
      rate: l.gst_rate,
      qty: l.qty,
      gross: money(bySl.get(l.sl_no)?.amount ?? l.line_taxable).toFixed(2),
      lineTaxable: l.line_taxable,
      share: l.share,
      taxable: l.taxable_value,
      igst: l.igst,
      cgst: l.cgst,
      sgst: l.sgst,
      total: add(l.taxable_value, l.igst, l.cgst, l.sgst).toFixed(2),
    })),
    shipping: '0.00',
    discount: '0.00',
    taxable: gst.taxable_total,
    igst: gst.igst_total,
    cgst: gst.cgst_total,
    sgst: gst.sgst_total,
    tax: gst.tax_total,
    exactTotal: gst.exact_total,
    roundOff: gst.round_off,
    invoiceValue: gst.invoice_value,
  };
}

/** Half of a rate for the CGST/SGST columns of the HSN summary (18 -> 9, 0.25 -> 0.125). */
const half = (rate: string) => money(rate).dividedBy(2).toFixed();
const pct = (rate: string) => `${money(rate).toFixed()}%`;

/** A line's heads with their rates: 'CGST 9% + SGST 9%' intra-state, 'IGST 18%' inter-state. */
export const headRatesText = (rate: string, interState: boolean, sgstName: string): string =>
  interState ? `IGST ${pct(rate)}` : `CGST ${pct(half(rate))} + ${sgstName} ${pct(half(rate))}`;

/** Rule 48: the original for the recipient, the duplicate for the transporter, the triplicate for the supplier. */
export const INVOICE_COPIES = ['original', 'duplicate', 'triplicate'] as const;
export type InvoiceCopy = (typeof INVOICE_COPIES)[number];
const COPY_LABEL = { original: 'gst.originalForRecipient', duplicate: 'gst.duplicateForTransporter', triplicate: 'gst.triplicateForSupplier' } as const;

// A4 portrait, 10 mm margins; the invoice number and page count in the bottom margin of every page.
// One bold weight (700) only: each weight is a font subset Chromium embeds, about 10 ms of page.pdf() each.
export const TAX_INVOICE_CSS = `
body { font-size: 8.5pt; }
th { font-weight: 700; }
.top { display: flex; gap: 4mm; align-items: flex-start; border-bottom: 0.4mm solid #222; padding-bottom: 2mm; }
.top img.logo { height: 18mm; max-width: 32mm; object-fit: contain; }
.top .who { flex: 1; }
.top .who div { line-height: 1.35; }
.top .doc { text-align: right; }
.top .doc h2 { font-size: 14pt; letter-spacing: 0.3pt; }
.top .doc .copy { font-size: 7pt; color: #555; margin-top: 0.5mm; }
.composition { margin-top: 1.5mm; padding: 1mm 2mm; border: 0.3mm solid #444; font-weight: 700; text-align: center; }
.k { color: #555; }
.parties { display: flex; gap: 4mm; margin: 2.5mm 0; }
.parties > .box { flex: 1; border: 0.2mm solid #999; padding: 1.5mm 2mm; }
.parties .box div { line-height: 1.4; }
.label { font-size: 7pt; color: #555; text-transform: uppercase; letter-spacing: 0.3pt; margin-bottom: 0.5mm; }
table.items th, table.items td { font-size: 7.8pt; padding: 0.9mm 1.1mm; }
table.items th { text-align: right; vertical-align: bottom; white-space: nowrap; }
table.items th.l { text-align: left; }
table.items tr { break-inside: avoid; }
table.items .desc { width: 100%; }
table.items .supply { font-size: 7.5pt; font-weight: 700; white-space: nowrap; }
table.items .pack { font-size: 6.8pt; color: #555; }
table.items tfoot, table.hsn tfoot { display: table-row-group; }
table.items tfoot td { font-weight: 700; border-top: 0.3mm solid #444; border-bottom: none; }
.after { display: flex; gap: 5mm; margin-top: 2.5mm; break-inside: avoid; }
.after .left { flex: 1; }
.words { margin-bottom: 1.5mm; }
.words strong { display: block; }
.note { font-size: 7.3pt; color: #444; margin-top: 1mm; }
table.totals { width: 74mm; }
table.totals td { border: none; padding: 0.5mm 1.5mm; }
table.totals tr.value td { font-weight: 700; font-size: 10pt; border-top: 0.3mm solid #222; border-bottom: 0.3mm solid #222; padding: 1mm 1.5mm; }
h3 { font-size: 8.5pt; margin: 3mm 0 1mm; }
table.hsn { break-inside: avoid; }
table.hsn.narrow { width: 110mm; }
table.hsn th, table.hsn td { font-size: 7.5pt; padding: 0.7mm 1.1mm; text-align: right; }
table.hsn th.l, table.hsn td.l { text-align: left; }
table.hsn tfoot td { font-weight: 700; border-top: 0.3mm solid #444; border-bottom: none; }
.foot { display: flex; gap: 5mm; margin-top: 3mm; align-items: flex-end; break-inside: avoid; }
.foot .account { flex: 1; display: flex; gap: 4mm; align-items: center; }
.foot .account table { width: 70mm; }
.foot .account td { border: none; padding: 0.4mm 1.5mm; }
.foot .account tr.tender td { font-size: 85%; padding-left: 3mm; }
.foot .account tr.due td { font-weight: 700; border-top: 0.3mm solid #444; }
.upi { display: flex; gap: 2mm; align-items: center; }
.upi .qr { width: 24mm; height: 24mm; }
.sign { width: 62mm; text-align: center; }
.sign .space { height: 14mm; }
.sign .line { border-top: 0.2mm solid #444; padding-top: 0.8mm; }
.generated { margin-top: 2mm; font-size: 6.8pt; color: #666; text-align: center; }
.copy-page { break-before: page; }
`;

/** @page margin boxes: printed by Chromium on every page; the invoice number is plain letters, digits, / and -. */
export function pageCss(invoiceNo: string, label = 'Invoice', page = 'Page', of = 'of'): string {
  const safe = invoiceNo.replace(/[^A-Za-z0-9/-]/g, '');
  // The labels come from the catalogues; quotes and backslashes are kept out of the CSS string all the same.
  const q = (s: string) => s.replace(/["\\]/g, '');
  return `@page { @bottom-right { content: "${q(label)} ${safe} · ${q(page)} " counter(page) " ${q(of)} " counter(pages); font-family: 'Noto Sans', 'Noto Sans Devanagari', sans-serif; font-size: 7pt; color: #555; } }`;
}

export function stateLine(p: { state_code: string | null; state_name: string | null }): string | null {
  if (!p.state_code) return null;
  return `${p.state_name ?? ''} (${p.state_code})`.trim();
}

export function PartyBox(props: { title: string; party: GstParty; shipTo?: string }) {
  const p = props.party;
  const t = useT();
  const state = stateLine(p);
  return (
    <div className="box">
      <div className="label">{props.title}</div>
      <strong>{p.name}</strong>
      {p.address.length ? <div>{p.address.join(', ')}</div> : null}
      {p.mobile ? <div>{t('common.mob', { phones: p.mobile })}</div> : null}
      {p.gstin ? (
        <div>
          <span className="k">{t('gst.gstin')}</span> <strong>{p.gstin}</strong>
        </div>
      ) : null}
      {state ? (
        <div>
          <span className="k">{t('gst.state')}</span> {state}
        </div>
      ) : null}
      {props.shipTo ? (
        <div>
          <span className="k">{t('gst.shipTo')}</span> {props.shipTo}
        </div>
      ) : null}
    </div>
  );
}

export type Heads = { cgst: boolean; sgst: boolean; igst: boolean };

function headsOf(gst: SaleGst): Heads {
  if (isBillOfSupply(gst)) return { cgst: false, sgst: false, igst: false };
  return gst.inter_state ? { cgst: false, sgst: false, igst: true } : { cgst: true, sgst: true, igst: false };
}

function ItemTable(props: { gst: SaleGst; lines: SoldLine[]; heads: Heads }) {
  const { gst, heads } = props;
  const byGst = new Map<number, GstLine>(gst.lines.map((l) => [l.sl_no, l]));
  const taxed = !isBillOfSupply(gst);
  const sgstName = gst.state_tax_name;
  const t = useT();
  return (
    <table className="items">
      <thead>
        <tr>
          <th className="l">#</th>
          <th className="l desc">{t('gst.description')}</th>
          <th className="l">{t('common.hsn')}</th>
          <th>{t('common.qty')}</th>
          <th>{t('common.rate')}</th>
          <th>{t('common.disc')}</th>
          <th>{taxed ? t('gst.taxableValue') : t('common.amount')}</th>
          {taxed ? <th>{t('gst.gstPct')}</th> : null}
          {heads.cgst ? <th>{t('gst.headPct', { head: 'CGST' })}</th> : null}
          {heads.cgst ? <th>CGST</th> : null}
          {heads.sgst ? <th>{t('gst.headPct', { head: sgstName })}</th> : null}
          {heads.sgst ? <th>{sgstName}</th> : null}
          {heads.igst ? <th>{t('gst.headPct', { head: 'IGST' })}</th> : null}
          {heads.igst ? <th>IGST</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.lines.map((l, i) => {
          const sl = l.sl_no ?? i + 1;
          const g = byGst.get(sl);
          // Nil-rated, exempt and non-GST lines: rate 0, no heads, their type beside the name (Table 8).
          const mark = g ? SUPPLY_MARK[printedSupplyType(gst, g)] : null;
          const headed = g && !mark;
          return (
            <tr key={sl}>
              {/* sl_no is the cart's line id (unique per company): the printed serial is the position. */}
              <td>{i + 1}</td>
              <td className="desc">
                {l.product_name}
                {mark ? <span className="supply"> ({t(mark)})</span> : null}
              </td>
              <td>{g?.hsn_code ?? l.hsn_code}</td>
              <QtyCell line={l} />
              <td className="num">
                {fixed(l.rate)}
                {taxed && g?.price_includes_tax ? '*' : ''}
              </td>
              <td className="num">{fixed(l.disc)}</td>
              <td className="num">{g ? amount(g.taxable_value) : ''}</td>
              {taxed ? <td className="num">{g ? money(g.gst_rate).toFixed() : ''}</td> : null}
              {heads.cgst ? <td className="num">{headed ? pct(half(g.gst_rate)) : ''}</td> : null}
              {heads.cgst ? <td className="num">{headed ? amount(g.cgst) : ''}</td> : null}
              {heads.sgst ? <td className="num">{headed ? pct(half(g.gst_rate)) : ''}</td> : null}
              {heads.sgst ? <td className="num">{headed ? amount(g.sgst) : ''}</td> : null}
              {heads.igst ? <td className="num">{headed ? pct(g.gst_rate) : ''}</td> : null}
              {heads.igst ? <td className="num">{headed ? amount(g.igst) : ''}</td> : null}
            </tr>
          );
        })}
      </tbody>
      <ItemTotals totals={gst} taxed={taxed} heads={heads} headRates />
    </table>
  );
}

/** The item table's Total row (the invoice's and a note's): the taxable value and each head that applies. */
export function ItemTotals(props: { totals: { taxable_total: Money.MoneyInput; cgst_total: Money.MoneyInput; sgst_total: Money.MoneyInput; igst_total: Money.MoneyInput }; taxed: boolean; heads: Heads; headRates?: boolean }) {
  const { totals: t, taxed, heads } = props;
  // An empty cell under each head's rate column, when the table has them.
  const rateCell = props.headRates ? <td /> : null;
  const tr = useT();
  return (
    <tfoot>
      <tr>
        <td />
        <td>{tr('common.total')}</td>
        <td />
        <td />
        <td />
        <td />
        <td className="num">{amount(t.taxable_total)}</td>
        {taxed ? <td /> : null}
        {heads.cgst ? rateCell : null}
        {heads.cgst ? <td className="num">{amount(t.cgst_total)}</td> : null}
        {heads.sgst ? rateCell : null}
        {heads.sgst ? <td className="num">{amount(t.sgst_total)}</td> : null}
        {heads.igst ? rateCell : null}
        {heads.igst ? <td className="num">{amount(t.igst_total)}</td> : null}
      </tr>
    </tfoot>
  );
}

function HsnTable(props: { rows: HsnSummaryRow[]; gst: SaleGst; heads: Heads }) {
  const { rows, gst, heads } = props;
  const taxed = !isBillOfSupply(gst);
  const tax = (r: HsnSummaryRow) => add(r.cgst, r.sgst, r.igst);
  const t = useT();
  return (
    <table className={taxed ? 'hsn' : 'hsn narrow'}>
      <thead>
        <tr>
          <th className="l">{t('common.hsn')}</th>
          <th>{t('common.qty')}</th>
          <th>{taxed ? t('gst.taxableValue') : t('gst.value')}</th>
          {heads.cgst ? <th>{t('gst.headRate', { head: 'CGST' })}</th> : null}
          {heads.cgst ? <th>CGST</th> : null}
          {heads.sgst ? <th>{t('gst.headRate', { head: gst.state_tax_name })}</th> : null}
          {heads.sgst ? <th>{gst.state_tax_name}</th> : null}
          {heads.igst ? <th>{t('gst.headRate', { head: 'IGST' })}</th> : null}
          {heads.igst ? <th>IGST</th> : null}
          {taxed ? <th>{t('gst.totalTax')}</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.hsn}|${r.uqc}|${r.rate}`}>
            <td className="l">{r.hsn}</td>
            <td>
              {unitQty(r.qty, '1')} {r.uqc}
            </td>
            <td>{amount(r.taxable)}</td>
            {heads.cgst ? <td>{pct(half(r.rate))}</td> : null}
            {heads.cgst ? <td>{amount(r.cgst)}</td> : null}
            {heads.sgst ? <td>{pct(half(r.rate))}</td> : null}
            {heads.sgst ? <td>{amount(r.sgst)}</td> : null}
            {heads.igst ? <td>{pct(r.rate)}</td> : null}
            {heads.igst ? <td>{amount(r.igst)}</td> : null}
            {taxed ? <td>{amount(tax(r))}</td> : null}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td className="l">{t('common.total')}</td>
          <td />
          <td>{amount(gst.taxable_total)}</td>
          {heads.cgst ? <td /> : null}
          {heads.cgst ? <td>{amount(gst.cgst_total)}</td> : null}
          {heads.sgst ? <td /> : null}
          {heads.sgst ? <td>{amount(gst.sgst_total)}</td> : null}
          {heads.igst ? <td /> : null}
          {heads.igst ? <td>{amount(gst.igst_total)}</td> : null}
          {taxed ? <td>{amount(gst.tax_total)}</td> : null}
        </tr>
      </tfoot>
    </table>
  );
}


/**
 * The tax invoice (CGST Rule 46) or, in composition mode, the bill of supply (Rule 49), A4
 * portrait, printed only from the figures sales froze into the sale: nothing is recomputed here
 * but the HSN summary's grouping (@bahi/gst) and the account below the invoice.
 */
export function TaxInvoiceTemplate(props: { company: CompanyView; sale: SaleDocument; gst: SaleGst; account: GstAccount; upi: Code | null; copies?: readonly InvoiceCopy[] }) {
  const { company, sale, gst } = props;
  const taxed = !isBillOfSupply(gst);
  const t = tOf(company);
  const lang = langOf(company);
  const title = taxed ? t('gst.taxInvoice') : t('gst.billOfSupply');
  const copies = props.copies?.length ? props.copies : (['original'] as const);
  return (
    <Html
      title={`${title} ${gst.invoice_no}`}
      size={A4}
      margin="10mm 10mm 12mm"
      lang={lang}
      css={pageCss(gst.invoice_no, t('gst.invoice'), t('common.page'), t('common.of')) + TAX_INVOICE_CSS + (sale.cancelled ? CANCELLED_CSS : '')}
    >
      {copies.map((copy, i) => (
        // Each copy starts on a new page (Rule 48: original, duplicate and triplicate in one print).
        <div key={copy} className={i ? 'copy-page' : undefined}>
          <InvoiceCopyBody {...props} copy={copy} />
        </div>
      ))}
    </Html>
  );
}

function InvoiceCopyBody(props: { company: CompanyView; sale: SaleDocument; gst: SaleGst; account: GstAccount; upi: Code | null; copy: InvoiceCopy }) {
  const { company, sale, gst, account: a } = props;
  const heads = headsOf(gst);
  const taxed = !isBillOfSupply(gst);
  const t = tOf(company);
  const lang = langOf(company);
  const title = taxed ? t('gst.taxInvoice') : t('gst.billOfSupply');
  const s = gst.supplier;
  const walkIn = isWalkIn(sale.customer);
  const phones = [company.mob1, company.mob2].filter(Boolean).join(', ');
  const hsnRows = hsnSummary(asComputed(gst, sale.soldProducts));
  const shipping = money(sale.shipping);
  const discount = money(sale.summery_discount);
  const inclusive = taxed && gst.lines.some((l) => l.price_includes_tax);
  const shipTo = sale.delivery?.address && sale.delivery.address !== gst.recipient.address.join(', ') ? sale.delivery.address : undefined;
  return (
    <>
      <div className="top">
        {company.logo ? <img className="logo" src={company.logo} alt="" /> : null}
        <div className="who">
          <h1>{s.name}</h1>
          {s.address.length ? <div>{s.address.join(', ')}</div> : null}
          <div className="muted">
            {phones ? t('common.mob', { phones }) : ''}
            {phones && (s.email || company.email) ? ' · ' : ''}
            {s.email || company.email}
          </div>
          <div>
            <span className="k">{t('gst.gstin')}</span> <strong>{s.gstin}</strong>
            {stateLine(s) ? (
              <>
                {' · '}
                <span className="k">{t('gst.state')}</span> {stateLine(s)}
              </>
            ) : null}
          </div>
        </div>
        <div className="doc">
          <h2>{title}</h2>
          <div className="copy">{t(COPY_LABEL[props.copy])}</div>
        </div>
      </div>
      {gst.document === 'bill-of-supply' ? <div className="composition">{t('gst.compositionLine')}</div> : null}
      {isExemptBillOfSupply(gst) ? <div className="composition">{t('gst.exemptLine')}</div> : null}
      <CancelledMark cancelled={sale.cancelled} />
      <div className="parties">
        <PartyBox title={gst.b2b ? t('gst.billToRegistered') : t('bill.billTo')} party={gst.recipient} shipTo={shipTo} />
        <div className="box meta">
          <div className="label">{t('gst.invoice')}</div>
          <div>
            <span className="k">{t('gst.invoiceNo')}</span> <strong>{gst.invoice_no}</strong>
          </div>
          <div>
            <span className="k">{t('gst.invoiceDate')}</span> {date(gst.invoice_date)}
          </div>
          {sale.due_date ? (
            <div>
              <span className="k">{t('gst.dueDate')}</span> {date(sale.due_date)}
            </div>
          ) : null}
          <div>
            <span className="k">{t('gst.placeOfSupply')}</span> {gst.place_of_supply_name} ({gst.place_of_supply})
          </div>
          <div>
            <span className="k">{t('gst.reverseCharge')}</span> {gst.reverse_charge ? t('common.yes') : t('common.no')}
          </div>
          <EwaybillLine ewb={sale.ewaybill} />
        </div>
      </div>
      <ItemTable gst={gst} lines={sale.soldProducts} heads={heads} />
      <div className="after">
        <div className="left">
          <div className="words">
            <span className="k">{t('gst.invoiceValueInWords')}</span>
            <strong>{inWords(lang, gst.invoice_value)}</strong>
          </div>
          {inclusive ? <div className="note">{t('gst.rateIncludesGst')}</div> : null}
          {!shipping.isZero() || !discount.isZero() ? (
            <div className="note">
              {t('gst.spreadNote', {
                parts: [!shipping.isZero() ? t('gst.shippingPart', { amount: rupees(shipping) }) : '', !discount.isZero() ? t('gst.discountPart', { amount: rupees(discount) }) : ''].filter(Boolean).join(' '),
                taxed: taxed ? 'yes' : 'no',
              })}
            </div>
          ) : null}
        </div>
        <table className="totals">
          <tbody>
            <Row name={taxed ? t('gst.taxableValue') : t('gst.totalValue')} value={amount(gst.taxable_total)} />
            {heads.cgst ? <Row name="CGST" value={amount(gst.cgst_total)} /> : null}
            {heads.sgst ? <Row name={gst.state_tax_name} value={amount(gst.sgst_total)} /> : null}
            {heads.igst ? <Row name="IGST" value={amount(gst.igst_total)} /> : null}
            <Row name={t('gst.roundOff')} value={signed(gst.round_off)} />
            <tr className="value">
              <td>{t('gst.invoiceValue')}</td>
              <td className="num">{rupees(gst.invoice_value)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <h3>{t('gst.hsnSummary')}</h3>
      <HsnTable rows={hsnRows} gst={gst} heads={heads} />
      <div className="foot">
        <div className="account">
          <table>
            <tbody>
              <Row name={t('gst.thisInvoice')} value={rupees(a.invoiceValue)} />
              {walkIn ? null : <Row name={t('common.previousDue')} value={rupees(a.previousDue)} />}
              <PaidRows payments={sale.payments} paid={a.paid} />
              <tr className="due">
                <td>{t('gst.balanceDue')}</td>
                <td className="num">{rupees(a.dueRounded, 0)}</td>
              </tr>
            </tbody>
          </table>
          <UpiBlock upi={props.upi} upiId={company.upiId} amount={a.dueRounded} />
        </div>
        <div className="sign">
          <div>{t('common.forCompany', { name: s.name })}</div>
          <div className="space" />
          <div className="line">{t('gst.signatory')}</div>
        </div>
      </div>
      <div className="generated">{t('gst.generated', { what: taxed ? t('gst.taxInvoiceLower') : t('gst.billOfSupplyLower') })}</div>
    </>
  );
}
