import type { CreditNoteDetails, DebitNoteDetails, GstParty, NoteFigures, NoteGst, NoteLine } from '@bahi/contracts';
import { stateByCode } from '@bahi/gst';
import { Money } from '@bahi/service-kit';
import { amount, date, fixed, rupees, signed } from '../render/format';
import { inWords, langOf, textFor, tOf, type DocT } from '../i18n';
import { CompanyHeader, Html } from './layout';
import { A4, BILL_SIZE, type CompanyView, type PageSize } from './model';
import { isWalkIn, QtyCell, Row, SALE_CSS } from './sale-docs';
import { ItemTotals, pageCss, PartyBox, stateLine, TAX_INVOICE_CSS, type Heads } from './tax-invoice';

const { money, sub } = Money;

/**
 * What a credit note (sales return) and a debit note (purchase return) print, in one shape:
 * the issuer is always the company; the other party is the customer or the distributor.
 */
export interface NoteView {
  title: 'Credit Note' | 'Debit Note';
  /** CN/YY-YY/NNNN or DN/YY-YY/NNNN */
  no: string;
  figures: NoteFigures;
  /** The original document, label and value pairs (invoice number and date; purchase, bill no and date). */
  reference: [string, string][];
  partyTitle: string;
  party: { name: string; address: string[]; mobile: string; gstin: string | null; state: string | null } | null;
  /** What the refund is called on this note. */
  refundLabel: string;
  /** What the rest of the note's value does to the party's account. */
  adjustedLabel: string;
}

/** The labels of a view are in the document's language (`t`; English when not given). */
export function creditNoteView(n: CreditNoteDetails, t: DocT = textFor('en')): NoteView {
  const c = n.walkIn || isWalkIn(n.customer) ? null : n.customer;
  const gst = n.gst;
  const reference: [string, string][] = gst
    ? [
        [t('note.originalInvoiceNo'), gst.invoice_no],
        [t('note.invoiceDate'), date(gst.invoice_date)],
      ]
    : [
        [t('note.againstBillNo'), String(n.saleId)],
        [t('note.billDate'), date(n.sale_date)],
      ];
  return {
    title: 'Credit Note',
    no: n.credit_note_no,
    figures: n,
    reference,
    partyTitle: gst?.gstin ? t('note.issuedToRegistered') : t('note.issuedTo'),
    party: c
      ? {
          name: c.name,
          address: [c.address_line_1, c.address_line_2, [c.city_or_district, c.state, c.postal_code].filter(Boolean).join(', ')].filter(Boolean),
          mobile: c.mobile_no,
          gstin: gst?.gstin ?? null,
          state: gst ? gst.place_of_supply : null,
        }
      : gst
        ? { name: t('note.walkIn'), address: [], mobile: '', gstin: null, state: gst.place_of_supply }
        : null,
    refundLabel: t('note.refundedInCash'),
    adjustedLabel: t('note.lessCustomerDue'),
  };
}

export function debitNoteView(n: DebitNoteDetails, t: DocT = textFor('en')): NoteView {
  const gst = n.gst;
  const gstin = gst?.gstin ?? null;
  return {
    title: 'Debit Note',
    no: n.debit_note_no,
    figures: n,
    reference: [
      [t('note.purchaseNo'), String(n.purchaseId)],
      [t('note.distributorBillNo'), (gst?.invoice_no || n.bill_no) ?? ''],
      [t('note.billDate'), date(gst?.invoice_date || n.purchase_date)],
    ],
    partyTitle: gstin ? t('note.issuedToSupplierRegistered') : t('note.issuedToSupplier'),
    // A registered distributor's state is its GSTIN's first two digits.
    party: { name: n.name, address: [], mobile: '', gstin, state: gstin ? gstin.slice(0, 2) : null },
    refundLabel: t('note.receivedBack'),
    adjustedLabel: t('note.lessDistributorDue'),
  };
}

const NOTE_CSS = `
.reason { margin-top: 1.5mm; }
.meta div { line-height: 1.4; }
.account td { border: none; padding: 0.4mm 1.5mm; }
`;

/** The note's value less the refund: what goes off the party's due. */
const adjusted = (f: NoteFigures) => sub(f.amount, f.refund);

/** The note's printed name and its heading, in the document's language. */
const titleOf = (t: DocT, v: NoteView) => (v.title === 'Credit Note' ? t('note.credit') : t('note.debit'));
const headingOf = (t: DocT, v: NoteView) => (v.title === 'Credit Note' ? t('note.creditHeading') : t('note.debitHeading'));

function Reference(props: { view: NoteView }) {
  return (
    <>
      {props.view.reference.map(([k, v]) => (
        <div key={k}>
          <span className="k">{k}:</span> {v}
        </div>
      ))}
    </>
  );
}

/** Simple mode: A5 like the bill, with the bill's line columns and totals rows. */
function SimpleNote(props: { company: CompanyView; view: NoteView }) {
  const { company, view: v } = props;
  const f = v.figures;
  const p = v.party;
  const t = tOf(company);
  const lang = langOf(company);
  const title = titleOf(t, v);
  return (
    <Html title={`${v.title} ${v.no}`} size={BILL_SIZE} lang={lang} css={SALE_CSS + NOTE_CSS}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>{headingOf(t, v)}</h2>
            <div>{t('note.no', { no: v.no })}</div>
            <div>{t('common.date', { date: date(f.date) })}</div>
          </>
        }
      />
      <div className="parties">
        {p ? (
          <div>
            <div className="label">{v.partyTitle}</div>
            <strong>{p.name}</strong>
            {p.address.length ? <div>{p.address.join(', ')}</div> : null}
            {p.mobile ? <div>{t('common.mob', { phones: p.mobile })}</div> : null}
          </div>
        ) : null}
        <div className="meta">
          <div className="label">{t('note.originalDocument')}</div>
          <Reference view={v} />
        </div>
      </div>
      <table className="lines">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('note.itemReturned')}</th>
            <th>{t('common.hsn')}</th>
            <th className="num">{t('common.qty')}</th>
            <th className="num">{t('common.rate')}</th>
            <th className="num">{t('common.disc')}</th>
            <th className="num">{t('common.amount')}</th>
          </tr>
        </thead>
        <tbody>
          {f.lines.map((l, i) => (
            <tr key={l.sl_no}>
              <td>{i + 1}</td>
              <td>
                {l.product_name} <span className="muted">({l.product_id})</span>
              </td>
              <td>{l.hsn_code}</td>
              <QtyCell line={qtyOf(l)} />
              <td className="num">{fixed(l.rate)}</td>
              <td className="num">{fixed(l.disc)}</td>
              <td className="num">{rupees(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="bottom">
        <div className="left">
          {f.reason ? <div className="reason">{t('note.reason', { reason: f.reason })}</div> : null}
          <div className="reason muted">{t('note.inWords', { words: inWords(lang, f.amount) })}</div>
        </div>
        <table className="totals">
          <tbody>
            <Row name={t('common.subtotal')} value={rupees(f.subtotal)} />
            <Row name={t('common.discount')} value={`- ${rupees(f.discount)}`} />
            <Row name={t('common.tax')} value={rupees(f.tax)} />
            <Row name={t('common.shipping')} value={rupees(f.shipping)} />
            <Row name={t('note.value', { title })} value={rupees(f.amount)} strong />
            <Row name={v.refundLabel} value={rupees(f.refund)} />
            <Row name={v.adjustedLabel} value={rupees(adjusted(f))} />
          </tbody>
        </table>
      </div>
      <div className="sign">{t('common.forCompany', { name: company.name })}</div>
    </Html>
  );
}

/** QtyCell takes the bill's decimal strings. */
const qtyOf = (l: NoteLine) => ({ quantity: String(l.quantity), per_peice_quantity: String(l.per_peice_quantity ?? 1), unit: l.unit });

function headsOf(g: NoteGst): Heads {
  if (g.tax_mode === 'composition') return { cgst: false, sgst: false, igst: false };
  return g.inter_state ? { cgst: false, sgst: false, igst: true } : { cgst: true, sgst: true, igst: false };
}

const cell = (v: number | null | undefined) => (v === null || v === undefined ? '' : amount(v));

function asParty(p: NonNullable<NoteView['party']>): GstParty {
  return { name: p.name, address: p.address, gstin: p.gstin, state_code: p.state, state_name: p.state ? (stateByCode(p.state)?.name ?? null) : null, mobile: p.mobile, email: '' };
}

/** GST mode: A4 like the tax invoice (CGST Rule 53(1A): the particulars of a credit or debit note). */
function GstNote(props: { company: CompanyView; view: NoteView; gst: NoteGst }) {
  const { company, view: v, gst: g } = props;
  const f = v.figures;
  const heads = headsOf(g);
  const taxed = g.tax_mode === 'gst';
  const phones = [company.mob1, company.mob2].filter(Boolean).join(', ');
  const supplierState = company.stateCode ? stateLine({ state_code: company.stateCode, state_name: stateByCode(company.stateCode)?.name ?? null }) : null;
  const t = tOf(company);
  const lang = langOf(company);
  const title = titleOf(t, v);
  return (
    <Html title={`${v.title} ${v.no}`} size={A4} margin="10mm 10mm 12mm" lang={lang} css={pageCss(v.no, title, t('common.page'), t('common.of')) + TAX_INVOICE_CSS + NOTE_CSS}>
      <div className="top">
        {company.logo ? <img className="logo" src={company.logo} alt="" /> : null}
        <div className="who">
          <h1>{company.name}</h1>
          <div>{[company.add1, company.add2].filter(Boolean).join(', ')}</div>
          <div className="muted">
            {phones ? t('common.mob', { phones }) : ''}
            {phones && company.email ? ' · ' : ''}
            {company.email}
          </div>
          {company.gstin ? (
            <div>
              <span className="k">{t('gst.gstin')}</span> <strong>{company.gstin}</strong>
              {supplierState ? (
                <>
                  {' · '}
                  <span className="k">{t('gst.state')}</span> {supplierState}
                </>
              ) : null}
            </div>
          ) : null}
        </div>
        <div className="doc">
          <h2>{title}</h2>
          <div className="copy">{t('gst.originalForRecipient')}</div>
        </div>
      </div>
      {taxed ? null : <div className="composition">{t('gst.compositionLine')}</div>}
      <div className="parties">
        {v.party ? <PartyBox title={v.partyTitle} party={asParty(v.party)} /> : null}
        <div className="box meta">
          <div className="label">{title}</div>
          <div>
            <span className="k">{t('note.titleNo', { title })}</span> <strong>{v.no}</strong>
          </div>
          <div>
            <span className="k">{t('thermal.date')}</span> {date(f.date)}
          </div>
          <Reference view={v} />
          <div>
            <span className="k">{t('gst.placeOfSupply')}</span> {g.place_of_supply_name} ({g.place_of_supply})
          </div>
          <div>
            <span className="k">{t('gst.reverseCharge')}</span> {t('common.no')}
          </div>
        </div>
      </div>
      <table className="items">
        <thead>
          <tr>
            <th className="l">#</th>
            <th className="l desc">{t('gst.description')}</th>
            <th className="l">{t('common.hsn')}</th>
            <th>{t('common.qty')}</th>
            <th>{t('common.rate')}</th>
            <th>{t('common.disc')}</th>
            <th>{taxed ? t('gst.taxableValue') : t('gst.value')}</th>
            {taxed ? <th>{t('gst.gstPct')}</th> : null}
            {heads.cgst ? <th>CGST</th> : null}
            {heads.sgst ? <th>{g.state_tax_name}</th> : null}
            {heads.igst ? <th>IGST</th> : null}
          </tr>
        </thead>
        <tbody>
          {f.lines.map((l, i) => (
            <tr key={l.sl_no}>
              <td>{i + 1}</td>
              <td className="desc">{l.product_name}</td>
              <td>{l.hsn_code}</td>
              <QtyCell line={qtyOf(l)} />
              <td className="num">{fixed(l.rate)}</td>
              <td className="num">{fixed(l.disc)}</td>
              <td className="num">{cell(l.taxable_value ?? l.value)}</td>
              {taxed ? <td className="num">{l.gst_rate === null || l.gst_rate === undefined ? '' : money(l.gst_rate).toFixed()}</td> : null}
              {heads.cgst ? <td className="num">{cell(l.cgst)}</td> : null}
              {heads.sgst ? <td className="num">{cell(l.sgst)}</td> : null}
              {heads.igst ? <td className="num">{cell(l.igst)}</td> : null}
            </tr>
          ))}
        </tbody>
        <ItemTotals totals={g} taxed={taxed} heads={heads} />
      </table>
      <div className="after">
        <div className="left">
          <div className="words">
            <span className="k">{t('note.valueInWords', { title })}</span>
            <strong>{inWords(lang, f.amount)}</strong>
          </div>
          {f.reason ? (
            <div className="reason">
              <span className="k">{t('note.reasonLabel')}</span> {f.reason}
            </div>
          ) : null}
          <div className="note">{t('note.taxReversed', { of: v.title === 'Credit Note' ? 'invoice' : 'bill' })}</div>
        </div>
        <table className="totals">
          <tbody>
            <Row name={taxed ? t('gst.taxableValue') : t('gst.totalValue')} value={amount(g.taxable_total)} />
            {heads.cgst ? <Row name="CGST" value={amount(g.cgst_total)} /> : null}
            {heads.sgst ? <Row name={g.state_tax_name} value={amount(g.sgst_total)} /> : null}
            {heads.igst ? <Row name="IGST" value={amount(g.igst_total)} /> : null}
            <Row name={t('gst.roundOff')} value={signed(g.round_off)} />
            <tr className="value">
              <td>{t('note.value', { title })}</td>
              <td className="num">{rupees(f.amount)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className="foot">
        <div className="account">
          <table>
            <tbody>
              <Row name={v.refundLabel} value={rupees(f.refund)} />
              <Row name={v.adjustedLabel} value={rupees(adjusted(f))} />
            </tbody>
          </table>
        </div>
        <div className="sign">
          <div>{t('common.forCompany', { name: company.name })}</div>
          <div className="space" />
          <div className="line">{t('gst.signatory')}</div>
        </div>
      </div>
      <div className="generated">{t('gst.generated', { what: v.title === 'Credit Note' ? t('note.creditLower') : t('note.debitLower') })}</div>
    </Html>
  );
}

export function NoteTemplate(props: { company: CompanyView; view: NoteView }) {
  const g = props.view.figures.gst;
  return g ? <GstNote company={props.company} view={props.view} gst={g} /> : <SimpleNote company={props.company} view={props.view} />;
}

export const noteSize = (view: NoteView): PageSize => (view.figures.gst ? A4 : BILL_SIZE);
