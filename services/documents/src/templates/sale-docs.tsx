import type { Customer, DeliveryDetails, EstimateDocument, PaymentLine, SaleDocument, SoldLine } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { Code } from '../render/codes';
import { date, fixed, isPack, qty, rupees, unitQty } from '../render/format';
import { langOf, tOf, useT } from '../i18n';
import { CompanyHeader, Html, Svg } from './layout';
import { BILL_SIZE, type CompanyView } from './model';

const { add, sub, money, Decimal } = Money;

/** The walk-in customer: no customer block, no previous due (spec 000/001 §9). */
export function isWalkIn(c: Customer | null): boolean {
  return !c || c.walkIn === true;
}

export interface BillFigures {
  subtotal: string;
  tax: string;
  shipping: string;
  discount: string;
  previousDue: string;
  total: string;
  paid: string;
  /** total - paid, exact. */
  due: string;
  /** The due as printed: rounded to whole rupees. */
  dueRounded: string;
}

/**
 * Invoice total = subtotal + previous due + shipping - discount + tax (spec §9); the walk-in
 * customer's previous due is excluded. Exact decimals; only the printed due is rounded.
 */
export function billFigures(s: {
  subtotal: string;
  tax: string;
  shipping: string;
  summery_discount: string;
  previousDue: string;
  paid: string;
  customer: Customer | null;
}): BillFigures {
  const previousDue = isWalkIn(s.customer) ? money(0) : money(s.previousDue);
  const total = sub(add(s.subtotal, previousDue, s.shipping, s.tax), s.summery_discount);
  const due = sub(total, s.paid);
  return {
    subtotal: money(s.subtotal).toFixed(),
    tax: money(s.tax).toFixed(),
    shipping: money(s.shipping).toFixed(),
    discount: money(s.summery_discount).toFixed(),
    previousDue: previousDue.toFixed(),
    total: total.toFixed(),
    paid: money(s.paid).toFixed(),
    due: due.toFixed(),
    dueRounded: due.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(),
  };
}

export const SALE_CSS = `
.parties { display: flex; gap: 4mm; margin: 2mm 0; }
.parties > div { flex: 1; }
.label { font-size: 7.5pt; color: #555; text-transform: uppercase; letter-spacing: 0.3pt; }
.lines td, .lines th { font-size: 8.5pt; }
.lines .pack { font-size: 7pt; color: #555; }
.bottom { display: flex; gap: 4mm; margin-top: 2mm; break-inside: avoid; }
.bottom .left { flex: 1; }
.totals { width: 70mm; }
.totals td { border: none; padding: 0.6mm 1.5mm; }
.totals tr.tender td { font-size: 85%; padding-left: 3mm; color: #333; }
.totals tr.strong td { font-weight: 700; border-top: 0.3mm solid #444; }
.upi { display: flex; gap: 2mm; align-items: center; }
.upi .qr { width: 24mm; height: 24mm; }
.sign { margin-top: 8mm; text-align: right; font-size: 8pt; }
`;

export function CustomerBlock(props: { customer: Customer | null; title: string }) {
  const c = props.customer;
  const t = useT();
  if (isWalkIn(c) || !c) return null;
  const place = [c.city_or_district, c.state, c.postal_code].filter(Boolean).join(', ');
  return (
    <div className="customer">
      <div className="label">{props.title}</div>
      <strong>{c.name}</strong>
      <div>{[c.address_line_1, c.address_line_2].filter(Boolean).join(', ')}</div>
      <div>{place}</div>
      <div>{t('common.mob', { phones: c.mobile_no })}</div>
    </div>
  );
}

/**
 * A cancelled bill keeps its number and prints CANCELLED across every page (position: fixed
 * repeats on each printed page) with the date and reason. Bold 700 only: the bills already embed
 * that weight, so the watermark adds no font subset to the render.
 */
export const CANCELLED_CSS = `
.cancelled-mark { position: fixed; top: 50%; left: 50%; transform: translate(-50%, -50%) rotate(-28deg); font-size: 76pt; font-weight: 700;
  letter-spacing: 4pt; color: rgba(200, 0, 0, 0.16); border: 2.5mm solid rgba(200, 0, 0, 0.16); padding: 0 5mm; z-index: 10; white-space: nowrap; pointer-events: none; }
.cancelled-line { margin: 1.5mm 0; padding: 1mm 2mm; border: 0.3mm solid #b00; color: #b00; font-weight: 700; }
`;

export function CancelledMark(props: { cancelled?: { date: string; reason: string } | null }) {
  const c = props.cancelled;
  const t = useT();
  if (!c) return null;
  return (
    <>
      <div className="cancelled-mark">{t('common.cancelledMark')}</div>
      <div className="cancelled-line">{t('common.cancelledOn', { date: date(c.date), reason: c.reason })}</div>
    </>
  );
}

/** The quantity the amount was computed from (quantity x per_peice_quantity, 1 decimal), the packs under it. */
export function QtyCell(props: { line: Pick<SoldLine, 'quantity' | 'per_peice_quantity' | 'unit'> }) {
  const l = props.line;
  return (
    <td className="num">
      {unitQty(l.quantity, l.per_peice_quantity)} {l.unit}
      {isPack(l.per_peice_quantity) ? (
        <div className="pack">
          {qty(l.quantity)} × {qty(l.per_peice_quantity!)}
        </div>
      ) : null}
    </td>
  );
}

function LineTable(props: { lines: SoldLine[]; prices: boolean }) {
  const t = useT();
  return (
    <table className="lines">
      <thead>
        <tr>
          <th>#</th>
          <th>{t('common.item')}</th>
          <th>{t('common.hsn')}</th>
          <th className="num">{t('common.qty')}</th>
          {props.prices ? (
            <>
              <th className="num">{t('common.rate')}</th>
              <th className="num">{t('common.disc')}</th>
              <th className="num">{t('common.price')}</th>
              <th className="num">{t('common.amount')}</th>
            </>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {props.lines.map((l, i) => (
          <tr key={i}>
            <td>{i + 1}</td>
            <td>
              {l.product_name} <span className="muted">({l.product_id})</span>
            </td>
            <td>{l.hsn_code}</td>
            <QtyCell line={l} />
            {props.prices ? (
              <>
                <td className="num">{fixed(l.rate)}</td>
                <td className="num">{fixed(l.disc)}</td>
                <td className="num">{fixed(l.price)}</td>
                <td className="num">{rupees(l.amount)}</td>
              </>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Row(props: { name: string; value: string; strong?: boolean }) {
  return (
    <tr className={props.strong ? 'strong' : undefined}>
      <td>{props.name}</td>
      <td className="num">{props.value}</td>
    </tr>
  );
}

/** The UPI QR of the amount due, with the payee's id (bills of both modes). */
/**
 * The tenders of a payment as printed rows: "Cash" ₹500.00, "UPI · 4123..." ₹1,150.00. Sales sent
 * without modes (before issue 28) paid cash, so `paid` alone prints as one cash row; nothing paid, none.
 */
export function tenders(payments: readonly PaymentLine[] | null | undefined, paid: Money.MoneyInput, t: (k: string) => string): { name: string; value: string }[] {
  const list = payments ?? (Money.money(paid).isZero() ? [] : [{ mode: 'cash' as const, amount: Money.money(paid).toFixed() }]);
  return list.map((p) => ({ name: `${t(`payMode.${p.mode}`)}${p.ref ? ` · ${p.ref}` : ''}`, value: rupees(p.amount) }));
}

/**
 * "Paid" on the A5 bill and the A4 invoice: one tender names its mode in the row ("Paid (Cash)"), so
 * a full A5 bill stays one page; a split tender lists each under it (indented, smaller).
 */
export function PaidRows(props: { payments: readonly PaymentLine[] | null | undefined; paid: Money.MoneyInput }) {
  const t = useT();
  const rows = tenders(props.payments, props.paid, t);
  if (rows.length === 1) return <Row name={`${t('common.paid')} (${rows[0]!.name})`} value={rupees(props.paid)} />;
  return (
    <>
      <Row name={t('common.paid')} value={rupees(props.paid)} />
      {rows.map((r, i) => (
        <tr key={i} className="tender">
          <td>{r.name}</td>
          <td className="num">{r.value}</td>
        </tr>
      ))}
    </>
  );
}

export function UpiBlock(props: { upi: Code | null; upiId: string | null; amount: string }) {
  const t = useT();
  if (!props.upi) return null;
  return (
    <div className="upi">
      <Svg className="qr" markup={props.upi.svg} />
      <div>
        <div className="label">{t('common.scanToPay')}</div>
        <div>{props.upiId}</div>
        <strong>{rupees(props.amount)}</strong>
      </div>
    </div>
  );
}

export function BillTemplate(props: { company: CompanyView; sale: SaleDocument; figures: BillFigures; upi: Code | null }) {
  const { company, sale, figures: f } = props;
  const walkIn = isWalkIn(sale.customer);
  const t = tOf(company);
  return (
    <Html title={`Bill ${sale.sale_id}`} size={BILL_SIZE} lang={langOf(company)} css={SALE_CSS + (sale.cancelled ? CANCELLED_CSS : '')}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>{t('bill.heading')}</h2>
            <div>{t('bill.no', { id: sale.sale_id })}</div>
            <div>{t('common.date', { date: date(sale.date) })}</div>
          </>
        }
      />
      <CancelledMark cancelled={sale.cancelled} />
      <div className="parties">
        <CustomerBlock customer={sale.customer} title={t('bill.billTo')} />
      </div>
      <LineTable lines={sale.soldProducts} prices />
      <div className="bottom">
        <div className="left">
          <UpiBlock upi={props.upi} upiId={company.upiId} amount={f.dueRounded} />
          {sale.due_date ? <div>{t('common.dueDate', { date: date(sale.due_date) })}</div> : null}
        </div>
        <table className="totals">
          <tbody>
            <Row name={t('common.subtotal')} value={rupees(f.subtotal)} />
            <Row name={t('common.tax')} value={rupees(f.tax)} />
            <Row name={t('common.shipping')} value={rupees(f.shipping)} />
            <Row name={t('common.discount')} value={`- ${rupees(f.discount)}`} />
            {walkIn ? null : <Row name={t('common.previousDue')} value={rupees(f.previousDue)} />}
            <Row name={t('common.total')} value={rupees(f.total)} strong />
            <PaidRows payments={sale.payments} paid={f.paid} />
            <Row name={t('common.due')} value={rupees(f.dueRounded, 0)} strong />
          </tbody>
        </table>
      </div>
      <div className="sign">{t('common.forCompany', { name: company.name })}</div>
    </Html>
  );
}

export function EstimateTemplate(props: { company: CompanyView; estimate: EstimateDocument }) {
  const { company, estimate: e } = props;
  const f = billFigures({ ...e, previousDue: e.previous_due, paid: '0' });
  const t = tOf(company);
  return (
    <Html title={`Estimate ${e.estimate_id}`} size={BILL_SIZE} lang={langOf(company)} css={SALE_CSS}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>{t('estimate.heading')}</h2>
            <div>{t('estimate.no', { id: e.estimate_id })}</div>
            <div>{t('common.date', { date: date(e.date) })}</div>
          </>
        }
      />
      <div className="parties">
        <CustomerBlock customer={e.customer} title={t('estimate.for')} />
      </div>
      <LineTable lines={e.lines} prices />
      <div className="bottom">
        <div className="left muted">{t('estimate.notABill')}</div>
        <table className="totals">
          <tbody>
            <Row name={t('common.subtotal')} value={rupees(f.subtotal)} />
            <Row name={t('common.tax')} value={rupees(f.tax)} />
            <Row name={t('common.shipping')} value={rupees(f.shipping)} />
            <Row name={t('common.discount')} value={`- ${rupees(f.discount)}`} />
            {isWalkIn(e.customer) ? null : <Row name={t('common.previousDue')} value={rupees(f.previousDue)} />}
            <Row name={t('common.total')} value={rupees(f.total)} strong />
          </tbody>
        </table>
      </div>
    </Html>
  );
}

function DeliveryBlock(props: { d: DeliveryDetails | null; ewb?: SaleDocument['ewaybill'] }) {
  const d = props.d;
  const t = useT();
  const cell = (v: string | undefined) => (v ? v : '—');
  return (
    <div className="delivery">
      <div className="label">{t('challan.dispatch')}</div>
      <div>
        {t('challan.transporter', { name: cell(d?.transporter_name) })} {d?.transporter_mobile ? `(${d.transporter_mobile})` : ''}
      </div>
      <div>{t('challan.modeVehicle', { mode: cell(d?.mode_of_transport), vehicle: cell(d?.vehicle_number) })}</div>
      <div>{t('challan.dispatched', { date: cell(date(d?.dispatched_date)) })}</div>
      {d?.address ? <div>{t('challan.deliverTo', { address: d.address })}</div> : null}
      <EwaybillLine ewb={props.ewb} />
    </div>
  );
}

/** The e-way bill number and validity (issue 31), in the shop's time; nothing without one. */
export function EwaybillLine(props: { ewb: SaleDocument['ewaybill'] }) {
  const t = useT();
  const e = props.ewb;
  if (!e) return null;
  const until = new Date(e.valid_until).toLocaleString('en-IN', { timeZone: 'Asia/Kolkata', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
  return <div data-ewb="1">{t('challan.ewaybill', { no: e.ewb_no, until })}</div>;
}

export function ChallanTemplate(props: { company: CompanyView; sale: SaleDocument }) {
  const { company, sale } = props;
  const t = tOf(company);
  return (
    <Html title={`Challan ${sale.sale_id}`} size={BILL_SIZE} lang={langOf(company)} css={SALE_CSS}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>{t('challan.heading')}</h2>
            <div>{t('bill.no', { id: sale.sale_id })}</div>
            <div>{t('common.date', { date: date(sale.date) })}</div>
          </>
        }
      />
      <div className="parties">
        <CustomerBlock customer={sale.customer} title={t('challan.consignee')} />
        <DeliveryBlock d={sale.delivery} ewb={sale.ewaybill} />
      </div>
      <LineTable lines={sale.soldProducts} prices={false} />
      <div className="bottom">
        <div className="left">{t('challan.goodsReceived')}</div>
      </div>
      <div className="sign">
        {t('challan.receiverSignature')} &nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; {t('common.forCompany', { name: company.name })}
      </div>
    </Html>
  );
}
