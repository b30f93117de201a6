import type { CustomerStatement, HistoryRow, ReceiptDocument } from '@bahi/contracts';
import { Money } from '@bahi/service-kit';
import type { Code } from '../render/codes';
import { date, rupees } from '../render/format';
import { CompanyHeader, Html, Svg } from './layout';
import { A4, BILL_SIZE, type CompanyView } from './model';

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
  return (
    <Html title={`Receipt ${r.id}`} size={BILL_SIZE} css={RECEIPT_CSS}>
      <CompanyHeader
        company={company}
        right={
          <>
            <h2>MONEY RECEIPT</h2>
            <div>Receipt No: {r.id}</div>
            <div>Date: {date(r.date)}</div>
          </>
        }
      />
      <div className="body">
        <div className="main">
          <div className="muted">Amount received</div>
          <div className="amount">{rupees(r.amount)}</div>
          <table>
            <tbody>
              <tr>
                <td>Customer</td>
                <td>
                  <strong>{r.name}</strong> (ID {r.client_id})
                </td>
              </tr>
              <tr>
                <td>Mobile</td>
                <td>{r.mobile_no}</td>
              </tr>
              {r.address ? (
                <tr>
                  <td>Address</td>
                  <td>{r.address}</td>
                </tr>
              ) : null}
              <tr>
                <td>Payment</td>
                <td>
                  {r.type}
                  {r.transaction_id ? ` · Txn ${r.transaction_id}` : ''}
                </td>
              </tr>
              <tr>
                <td>Previous due</td>
                <td>{rupees(r.previous_due)}</td>
              </tr>
              <tr>
                <td>Due after payment</td>
                <td>
                  <strong>{rupees(r.due)}</strong>
                </td>
              </tr>
              {r.next_due_date ? (
                <tr>
                  <td>Next due date</td>
                  <td>{date(r.next_due_date)}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        {props.upi ? (
          <div className="upi">
            <Svg className="qr" markup={props.upi.svg} />
            <div>Pay the remaining due by UPI</div>
            <div>{company.upiId}</div>
          </div>
        ) : null}
      </div>
      <div className="sign">For {company.name}</div>
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
  return (
    <Html title={`Statement ${c.client_id}`} size={A4} margin={`${STATEMENT.marginMm}mm`} css={STATEMENT_CSS}>
      {pages.map((rows, p) => (
        <section className="sheet" key={p}>
          <div className="top">
            <CompanyHeader
              company={company}
              right={
                <>
                  <h2>STATEMENT OF ACCOUNT</h2>
                  <div>Printed on {date(props.printedOn)}</div>
                </>
              }
            />
            <div className="info">
              <div>
                <strong>{c.name}</strong> (ID {c.client_id})
                <div>{[c.address_line_1, c.address_line_2, c.city_or_district].filter(Boolean).join(', ')}</div>
                <div>Mob: {c.mobile_no}</div>
              </div>
              <div className="due">
                Total due: <strong>{rupees(statementDue(s.due))}</strong>
                {s.dueDate ? <div>Due date: {date(s.dueDate)}</div> : null}
              </div>
            </div>
          </div>
          <table>
            <thead>
              <tr>
                <th style={{ width: '22mm' }}>Date</th>
                <th>Particulars</th>
                <th style={{ width: '14mm' }}>Ref</th>
                <th className="num">Amount</th>
                <th className="num">Paid</th>
                <th className="num">Balance</th>
                <th style={{ width: '22mm' }}>Due date</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{date(r.date)}</td>
                  <td>{r.type}</td>
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
            <span>
              Page {p + 1} of {pages.length}
            </span>
          </div>
        </section>
      ))}
    </Html>
  );
}
