import type { CustomerStatement, HistoryRow, ReceiptDocument } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { Code } from '../render/codes';
import { date, rupees } from '../render/format';
import { langOf, tOf } from '../i18n';
import { CompanyHeader, Html, Svg } from './layout';
import { A4, BILL_SIZE, type CompanyView } from './model';
import { tenders } from './sale-docs';

const { money } = Money;

const RECEIPT_CSS = `
.body { display: flex; gap: 6mm; margin-top: 4mm; }
.body .main { flex: 1; }
.body table td { border: none; padding: 1mm 1.5mm; font-size: 10pt; }
.body table td:first-child { color: #555; width: 38mm; }
.amount { font-size: 16pt; font-weight: 700; margin: 3mm 0; }
.upi { width: 34mm; text-align: center; font-size: 8pt; }
.upi .qr { width: 34mm; height: 34mm; }
.sign { margin-top: 10mm; text-align: right; font-size: 8pt; }
`;

export function ReceiptTemplate(props: { company: CompanyView; receipt: ReceiptDocument; upi: Code | null }) {
  const { company, receipt: r } = props;
  const t = tOf(company);
  return (
    <Html title={`Receipt ${r.id}`} size={BILL_SIZE} lang={langOf(company)} css={RECEIPT_CSS}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>{t('receipt.heading')}</h2>
            <div>{t('receipt.no', { id: r.id })}</div>
            <div>{t('common.date', { date: date(r.date) })}</div>
          </>
        }
      />
      <div className="body">
        <div className="main">
          <div className="muted">{t('receipt.amountReceived')}</div>
          <div className="amount">{rupees(r.amount)}</div>
          <table>
            <tbody>
              <tr>
                <td>{t('receipt.customer')}</td>
                <td>
                  <strong>{r.name}</strong> {t('common.idInBrackets', { id: r.client_id })}
                </td>
              </tr>
              <tr>
                <td>{t('receipt.mobile')}</td>
                <td>{r.mobile_no}</td>
              </tr>
              {r.address ? (
                <tr>
                  <td>{t('receipt.address')}</td>
                  <td>{r.address}</td>
                </tr>
              ) : null}
              <tr>
                <td>{t('receipt.payment')}</td>
                <td>
                  {r.payments?.length
                    ? // Each tender with its amount and reference (issue 28): "Cash ₹400.00 + Card · AUTH 0042 ₹600.00".
                      tenders(r.payments, r.amount, t)
                        .map((p) => `${p.name} ${p.value}`)
                        .join(' + ')
                    : `${t(`receipt.paymentType.${r.type}`, { defaultValue: r.type })}${r.transaction_id ? ` · ${t('receipt.txn', { id: r.transaction_id })}` : ''}`}
                </td>
              </tr>
              <tr>
                <td>{t('common.previousDue')}</td>
                <td>{rupees(r.previous_due)}</td>
              </tr>
              <tr>
                <td>{t('receipt.dueAfter')}</td>
                <td>
                  <strong>{rupees(r.due)}</strong>
                </td>
              </tr>
              {r.next_due_date ? (
                <tr>
                  <td>{t('receipt.nextDueDate')}</td>
                  <td>{date(r.next_due_date)}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        {props.upi ? (
          <div className="upi">
            <Svg className="qr" markup={props.upi.svg} />
            <div>{t('receipt.payRemaining')}</div>
            <div>{company.upiId}</div>
          </div>
        ) : null}
      </div>
      <div className="sign">{t('common.forCompany', { name: company.name })}</div>
    </Html>
  );
}

/** Statement page geometry (mm): rows are 8 mm high (spec §9); the rest is header and footer. */
export const STATEMENT = {
  marginMm: 10,
  headerMm: 42,
  tableHeadMm: 8,
  footerMm: 10,
  rowMm: 8,
} as const;

/** Rows that fit one A4 statement page: the free height divided by the 8 mm row height. */
export function statementRowsPerPage(): number {
  const free = A4.heightMm - 2 * STATEMENT.marginMm - STATEMENT.headerMm - STATEMENT.tableHeadMm - STATEMENT.footerMm;
  return Math.floor(free / STATEMENT.rowMm);
}

/** A due below ₹3 is printed as 0 on a statement (spec §9). */
export function statementDue(due: Money.MoneyInput): string {
  const d = money(due);
  return d.lessThan(3) ? '0' : d.toFixed();
}

const STATEMENT_CSS = `
.sheet { height: ${A4.heightMm - 2 * STATEMENT.marginMm}mm; position: relative; overflow: hidden; break-after: page; }
.sheet:last-child { break-after: auto; }
.sheet .top { height: ${STATEMENT.headerMm}mm; overflow: hidden; }
.sheet .info { display: flex; gap: 4mm; margin-top: 2mm; }
.sheet .info > div { flex: 1; }
.sheet .info .due { text-align: right; font-size: 11pt; }
.sheet table { table-layout: fixed; }
.sheet th { height: ${STATEMENT.tableHeadMm}mm; vertical-align: middle; padding: 0 1.5mm; }
.sheet td { height: ${STATEMENT.rowMm}mm; vertical-align: middle; padding: 0 1.5mm; white-space: nowrap; overflow: hidden; }
.sheet .foot { position: absolute; bottom: 0; left: 0; right: 0; height: ${STATEMENT.footerMm}mm;
  display: flex; justify-content: space-between; align-items: flex-end; font-size: 8pt; color: #555; }
`;

export function StatementTemplate(props: { company: CompanyView; statement: CustomerStatement; printedOn: string }) {
  const { company, statement: s } = props;
  const per = statementRowsPerPage();
  const pages: HistoryRow[][] = [];
  for (let i = 0; i < s.rows.length; i += per) pages.push(s.rows.slice(i, i + per));
  if (pages.length === 0) pages.push([]);
  const c = s.customer;
  const t = tOf(company);
  return (
    <Html title={`Statement ${c.client_id}`} size={A4} margin={`${STATEMENT.marginMm}mm`} lang={langOf(company)} css={STATEMENT_CSS}>
      {pages.map((rows, p) => (
        <section className="sheet" key={p}>
          <div className="top">
            <CompanyHeader
              company={company}
              right={
                <>
                  <h2>{t('statement.heading')}</h2>
                  <div>{t('statement.printedOn', { date: date(props.printedOn) })}</div>
                </>
              }
            />
            <div className="info">
              <div>
                <strong>{c.name}</strong> {t('common.idInBrackets', { id: c.client_id })}
                <div>{[c.address_line_1, c.address_line_2, c.city_or_district].filter(Boolean).join(', ')}</div>
                <div>{t('common.mob', { phones: c.mobile_no })}</div>
              </div>
              <div className="due">
                {t('statement.totalDue')} <strong>{rupees(statementDue(s.due))}</strong>
                {s.dueDate ? <div>{t('common.dueDate', { date: date(s.dueDate) })}</div> : null}
              </div>
            </div>
          </div>
          <table>
            <thead>
              <tr>
                <th style={{ width: '22mm' }}>{t('statement.date')}</th>
                <th>{t('statement.particulars')}</th>
                <th style={{ width: '14mm' }}>{t('statement.ref')}</th>
                <th className="num">{t('common.amount')}</th>
                <th className="num">{t('common.paid')}</th>
                <th className="num">{t('statement.balance')}</th>
                <th style={{ width: '22mm' }}>{t('statement.dueDate')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{date(r.date)}</td>
                  <td>{t(`statement.type.${r.type}`, { defaultValue: r.type })}</td>
                  <td>{r.ref ?? ''}</td>
                  <td className="num">{rupees(String(r.amount))}</td>
                  <td className="num">{rupees(String(r.paid))}</td>
                  <td className="num">{rupees(String(r.balance))}</td>
                  <td>{date(r.due_date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="foot">
            <span>{company.name}</span>
            <span>{t('common.pageOf', { page: p + 1, pages: pages.length })}</span>
          </div>
        </section>
      ))}
    </Html>
  );
}
