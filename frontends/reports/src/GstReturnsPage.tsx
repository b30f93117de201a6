import { useEffect, useState, type ReactNode } from 'react';
import {
  ApiError,
  Button,
  Card,
  Spinner,
  api,
  errorMessage,
  fileNameOf,
  formatINR,
  requestBlob,
  useAlert,
} from '@bahi/ui-kit';
import type { Gstr3bReply } from '@bahi/contracts';
import {
  defaultPeriod,
  fallbackFileName,
  formatQty,
  formatRate,
  gstr1Query,
  invoiceRows,
  isEmptyReturn,
  isPeriod,
  monthLabel,
  posLabel,
  sum,
  taxOf,
  type CsvSection,
  type Gstr1,
} from './rules';

type Loaded<T> = { ok: true; data: T } | { ok: false; message: string };
type State =
  { status: 'loading' } | { status: 'done'; period: string; gstr1: Loaded<Gstr1>; gstr3b: Loaded<Gstr3bReply> };

const settle = <T,>(p: Promise<T>): Promise<Loaded<T>> =>
  p.then(
    (data) => ({ ok: true as const, data }),
    (err: unknown) => ({ ok: false as const, message: errorMessage(err) }),
  );

interface Column<R> {
  label: string;
  /** Right-aligned figures. */
  num?: boolean;
  cell(row: R): ReactNode;
  /** The footer's total for this column, when it has one. */
  total?: ReactNode;
}

function SectionTable<R>({
  testId,
  columns,
  rows,
  empty,
}: {
  testId: string;
  columns: Column<R>[];
  rows: R[];
  empty: string;
}) {
  const hasTotals = rows.length > 0 && columns.some((c) => c.total !== undefined);
  return (
    <div className="bk-table-wrap">
      <table className="bk-table rp-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} className={c.num ? 'rp-num' : undefined} scope="col">
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="bk-table__empty" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((r, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c.label} className={c.num ? 'rp-num bk-money' : undefined}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
        {hasTotals && (
          <tfoot>
            <tr data-testid={`${testId}-total`}>
              {columns.map((c, i) => (
                <td key={c.label} className={c.num ? 'rp-num bk-money' : undefined}>
                  {i === 0 ? 'Total' : c.total}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}

const inr = (v: number | undefined) => formatINR(v ?? 0);

/** /reports/gst: GSTR-1 and GSTR-3B of one month, with the portal's JSON and CSV downloads. */
export function GstReturnsPage() {
  const alert = useAlert();
  const [period, setPeriod] = useState(defaultPeriod);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [downloading, setDownloading] = useState<string | null>(null);

  useEffect(() => {
    if (!isPeriod(period)) return;
    let live = true;
    setState({ status: 'loading' });
    void Promise.all([
      settle(api.get<Gstr1>('/gst/gstr1', { query: { period } })),
      settle(api.get<Gstr3bReply>('/gst/gstr3b', { query: { period } })),
    ]).then(([gstr1, gstr3b]) => live && setState({ status: 'done', period, gstr1, gstr3b }));
    return () => {
      live = false;
    };
  }, [period]);

  // The server's bytes and file name, fetched with the session's token (a plain link sends none).
  const download = async (section?: CsvSection) => {
    const key = section ?? 'json';
    setDownloading(key);
    try {
      const { blob, contentDisposition } = await requestBlob('/gst/gstr1', { query: gstr1Query(period, section) });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = fileNameOf(contentDisposition, fallbackFileName(period, key));
      a.style.display = 'none';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      alert.error(err instanceof ApiError ? err.message : 'The download failed; try again.');
    } finally {
      setDownloading(null);
    }
  };

  const csvButton = (section: CsvSection, label = 'Download CSV') => (
    <Button
      variant="secondary"
      busy={downloading === section}
      onClick={() => void download(section)}
      data-testid={`download-${section}`}
      aria-label={`Download ${section.toUpperCase()} CSV`}
    >
      {label}
    </Button>
  );

  const now = defaultPeriod(new Date(Date.now() + 32 * 86_400_000)); // this month, the latest one can pick
  return (
    <div className="rp-page">
      <div className="bk-page-title">
        <div>
          <h1>GST returns</h1>
          <p className="bk-muted rp-sub">
            GSTR-1 (outward supplies) and GSTR-3B (summary) for the month, as the GST portal's offline tool takes them.
          </p>
        </div>
        <div className="rp-controls">
          <label className="rp-month">
            <span>Month</span>
            <input
              type="month"
              name="period"
              value={period}
              max={now}
              onChange={(e) => e.target.value && setPeriod(e.target.value)}
              data-testid="gst-period"
            />
          </label>
          <Button
            busy={downloading === 'json'}
            disabled={state.status !== 'done' || !state.gstr1.ok}
            onClick={() => void download()}
            data-testid="download-json"
          >
            Download JSON
          </Button>
        </div>
      </div>
      {state.status === 'loading' ? (
        <Spinner label="Loading the returns…" />
      ) : (
        <Returns state={state} csvButton={csvButton} />
      )}
    </div>
  );
}

function Returns({
  state,
  csvButton,
}: {
  state: Extract<State, { status: 'done' }>;
  csvButton: (s: CsvSection, label?: string) => ReactNode;
}) {
  const { gstr1, gstr3b, period } = state;
  if (!gstr1.ok) {
    return (
      <Card title="The returns cannot be prepared">
        <p className="rp-error" role="alert" data-testid="gst-error">
          {gstr1.message}
        </p>
      </Card>
    );
  }
  const r = gstr1.data;
  const b2b = invoiceRows(r.b2b);
  const b2cl = invoiceRows(r.b2cl);
  const b2cs = r.b2cs ?? [];
  const hsn = r.hsn?.data ?? [];
  const docs = (r.doc_issue?.doc_det ?? []).flatMap((d) => d.docs.map((doc) => ({ ...doc, doc_num: d.doc_num })));
  const empty = isEmptyReturn(r);
  // Purchases' input tax can make a 3B worth reading in a month without sales.
  const threeB = gstr3b.ok ? (
    <Gstr3b data={gstr3b.data} />
  ) : (
    <Card title="GSTR-3B summary">
      <p className="rp-error" role="alert">
        {gstr3b.message}
      </p>
    </Card>
  );

  return (
    <>
      <div className="bk-stats rp-stats" data-testid="gst-summary">
        <div className="bk-stat">
          <span className="bk-stat__label">GSTIN</span>
          <span className="bk-stat__value bk-stat__value--small" data-testid="gst-gstin">
            {r.gstin}
          </span>
        </div>
        <div className="bk-stat">
          <span className="bk-stat__label">Return period</span>
          <span className="bk-stat__value bk-stat__value--small" data-testid="gst-fp">
            {monthLabel(period)} ({r.fp})
          </span>
        </div>
        {!empty && (
          <>
            <div className="bk-stat">
              <span className="bk-stat__label">Taxable value</span>
              <span className="bk-stat__value bk-stat__value--small bk-money">
                {inr(sum([...b2b.map((x) => x.txval), ...b2cl.map((x) => x.txval), ...b2cs.map((x) => x.txval)]))}
              </span>
            </div>
            <div className="bk-stat">
              <span className="bk-stat__label">Tax</span>
              <span className="bk-stat__value bk-stat__value--small bk-money">
                {inr(sum([...b2b.map((x) => x.tax), ...b2cl.map((x) => x.tax), ...b2cs.map(taxOf)]))}
              </span>
            </div>
          </>
        )}
      </div>

      {empty ? (
        <>
          <Card title="GSTR-1">
            <p className="rp-empty" data-testid="gst-empty">
              No invoices in {monthLabel(period)}.
            </p>
          </Card>
          {threeB}
        </>
      ) : (
        <>
          {threeB}
          <Card title={`B2B invoices (${b2b.length})`} actions={csvButton('b2b')}>
            <SectionTable
              testId="gst-b2b"
              rows={b2b}
              empty="No invoices to registered customers."
              columns={[
                { label: 'Customer GSTIN', cell: (x) => <span className="rp-code">{x.ctin}</span> },
                { label: 'Invoice no', cell: (x) => x.inum },
                { label: 'Date', cell: (x) => x.idt },
                { label: 'Place of supply', cell: (x) => posLabel(x.pos) },
                { label: 'Invoice value', num: true, cell: (x) => inr(x.val), total: inr(sum(b2b.map((x) => x.val))) },
                {
                  label: 'Taxable value',
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2b.map((x) => x.txval))),
                },
                { label: 'Tax', num: true, cell: (x) => inr(x.tax), total: inr(sum(b2b.map((x) => x.tax))) },
              ]}
            />
          </Card>

          <Card title={`B2C large invoices (${b2cl.length})`} actions={csvButton('b2cl')}>
            <SectionTable
              testId="gst-b2cl"
              rows={b2cl}
              empty="No inter-state invoice above ₹1,00,000 to an unregistered customer."
              columns={[
                { label: 'Invoice no', cell: (x) => x.inum },
                { label: 'Date', cell: (x) => x.idt },
                { label: 'Place of supply', cell: (x) => posLabel(x.pos) },
                { label: 'Invoice value', num: true, cell: (x) => inr(x.val), total: inr(sum(b2cl.map((x) => x.val))) },
                {
                  label: 'Taxable value',
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2cl.map((x) => x.txval))),
                },
                { label: 'IGST', num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cl.map((x) => x.iamt))) },
              ]}
            />
          </Card>

          <Card title={`B2C small (${b2cs.length})`} actions={csvButton('b2cs')}>
            <SectionTable
              testId="gst-b2cs"
              rows={b2cs}
              empty="No sales to unregistered customers."
              columns={[
                { label: 'Supply', cell: (x) => (x.sply_ty === 'INTER' ? 'Inter-state' : 'Intra-state') },
                { label: 'Place of supply', cell: (x) => posLabel(x.pos) },
                { label: 'Rate', num: true, cell: (x) => formatRate(x.rt) },
                {
                  label: 'Taxable value',
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(b2cs.map((x) => x.txval))),
                },
                { label: 'IGST', num: true, cell: (x) => inr(x.iamt), total: inr(sum(b2cs.map((x) => x.iamt))) },
                { label: 'CGST', num: true, cell: (x) => inr(x.camt), total: inr(sum(b2cs.map((x) => x.camt))) },
                { label: 'SGST/UTGST', num: true, cell: (x) => inr(x.samt), total: inr(sum(b2cs.map((x) => x.samt))) },
              ]}
            />
          </Card>

          <Card title={`HSN summary (${hsn.length})`} actions={csvButton('hsn')}>
            <SectionTable
              testId="gst-hsn"
              rows={hsn}
              empty="No goods sold."
              columns={[
                { label: 'HSN', cell: (x) => <span className="rp-code">{x.hsn_sc}</span> },
                { label: 'Description', cell: (x) => <span className="rp-desc">{x.desc ?? ''}</span> },
                { label: 'UQC', cell: (x) => x.uqc },
                { label: 'Quantity', num: true, cell: (x) => formatQty(x.qty) },
                { label: 'Rate', num: true, cell: (x) => formatRate(x.rt) },
                {
                  label: 'Taxable value',
                  num: true,
                  cell: (x) => inr(x.txval),
                  total: inr(sum(hsn.map((x) => x.txval))),
                },
                { label: 'IGST', num: true, cell: (x) => inr(x.iamt), total: inr(sum(hsn.map((x) => x.iamt))) },
                { label: 'CGST', num: true, cell: (x) => inr(x.camt), total: inr(sum(hsn.map((x) => x.camt))) },
                { label: 'SGST', num: true, cell: (x) => inr(x.samt), total: inr(sum(hsn.map((x) => x.samt))) },
                {
                  label: 'Total value',
                  num: true,
                  cell: (x) => inr(x.val ?? sum([x.txval, taxOf(x)])),
                  total: inr(sum(hsn.map((x) => x.val ?? sum([x.txval, taxOf(x)])))),
                },
              ]}
            />
          </Card>

          <Card title="Documents issued" actions={csvButton('docs')}>
            <SectionTable
              testId="gst-docs"
              rows={docs}
              empty="No invoice numbers used."
              columns={[
                {
                  label: 'Nature of document',
                  cell: (x) => (x.doc_num === 1 ? 'Invoices for outward supply' : `Document type ${x.doc_num}`),
                },
                { label: 'From', cell: (x) => x.from },
                { label: 'To', cell: (x) => x.to },
                { label: 'Total', num: true, cell: (x) => x.totnum },
                { label: 'Cancelled', num: true, cell: (x) => x.cancel },
                { label: 'Net issued', num: true, cell: (x) => x.net_issue },
              ]}
            />
          </Card>
        </>
      )}
    </>
  );
}

function Gstr3b({ data }: { data: Gstr3bReply }) {
  type Row = {
    label: string;
    txval?: number;
    iamt?: number;
    camt?: number;
    samt?: number;
    csamt?: number;
    strong?: boolean;
  };
  const rows: Row[] = [
    { label: '3.1(a) Outward taxable supplies', ...data.outward },
    { label: '3.1(c) Nil rated and exempted', txval: data.nil_exempt.txval },
    { label: '4(A)(5) Input tax credit from purchases', ...data.itc },
    { label: 'Tax payable in cash', ...data.net_payable, strong: true },
    { label: 'Input tax credit carried forward', ...data.itc_carried },
  ];
  const cell = (v: number | undefined) => (v === undefined ? '' : inr(v));
  return (
    <Card title="GSTR-3B summary">
      <div className="bk-table-wrap">
        <table className="bk-table rp-table" data-testid="gst-3b">
          <thead>
            <tr>
              <th scope="col">Head</th>
              <th scope="col" className="rp-num">
                Taxable value
              </th>
              <th scope="col" className="rp-num">
                IGST
              </th>
              <th scope="col" className="rp-num">
                CGST
              </th>
              <th scope="col" className="rp-num">
                SGST
              </th>
              <th scope="col" className="rp-num">
                Cess
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label} className={r.strong ? 'rp-strong' : undefined}>
                <td>{r.label}</td>
                <td className="rp-num bk-money">{cell(r.txval)}</td>
                <td className="rp-num bk-money">{cell(r.iamt)}</td>
                <td className="rp-num bk-money">{cell(r.camt)}</td>
                <td className="rp-num bk-money">{cell(r.samt)}</td>
                <td className="rp-num bk-money">{cell(r.csamt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {data.inter_state_unreg.length > 0 && (
        <p className="bk-muted rp-note">
          3.2 Inter-state supplies to unregistered persons:{' '}
          {data.inter_state_unreg.map((x) => `${posLabel(x.pos)} ${inr(x.txval)} (IGST ${inr(x.iamt)})`).join('; ')}
        </p>
      )}
    </Card>
  );
}
