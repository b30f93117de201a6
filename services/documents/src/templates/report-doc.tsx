import { BadRequestException, NotFoundException } from '@nestjs/common';
import { DocumentSubjects as S, ReportNames, type ReportName, type ReportRowsReply } from '@bahi/contracts';
import { companyFor } from '../documents/company';
import type { DocumentKindDef } from '../documents/kinds';
import { langOf, tOf, type DocT } from '../i18n';
import { amount, date, qty } from '../render/format';
import { CompanyHeader, Html } from './layout';
import { A4, type CompanyView, type PageSize } from './model';

/** The most rows one report PDF prints (about 60 landscape pages); past it: narrow the filters or export CSV. */
export const MAX_REPORT_ROWS = 2000;
export const A4_LANDSCAPE: PageSize = { widthMm: A4.heightMm, heightMm: A4.widthMm };

type Row = Record<string, unknown>;
type Cell = 'text' | 'money' | 'qty' | 'date' | 'pct' | 'int';

/** A printed column: the row's field, its label key, how it prints, and the totals' field when it has one. */
interface Col {
  key: string;
  label: string;
  cell: Cell;
  total?: string;
}

const col = (key: string, cell: Cell = 'text', total?: string): Col => ({ key, label: key, cell, total });
const m = (key: string, total: string | null = key): Col => col(key, 'money', total ?? undefined);

/** Each report's columns, as its CSV export has them (ids left out: people read names). */
function columnsOf(name: ReportName, report: Row): Col[] {
  switch (name) {
    case 'daybook':
      return [col('kind'), col('docNo'), col('party'), m('amount', null), m('cashIn'), m('cashOut')];
    case 'sales-register':
      return [col('date', 'date'), col('invoice_no'), col('customer'), m('amount'), m('returned'), col('cancelled'), m('net'), m('paid')];
    case 'purchase-register':
      return [col('date', 'date'), col('bill_no'), col('distributor'), m('amount'), m('returned'), m('net'), m('paid')];
    case 'stock-summary':
      return [col('name'), col('category'), col('brand'), col('stock', 'qty', 'stock'), m('cp', null), m('mrp', null), m('costValue'), m('mrpValue')];
    case 'profit': {
      const by = report.by;
      const first = by === 'month' ? [col('month')] : by === 'category' ? [col('category'), col('qty', 'qty')] : [col('name'), col('qty', 'qty')];
      return [...first, m('value'), m('cost'), m('valueWithoutCost'), m('profit'), col('marginPct', 'pct')];
    }
    case 'ageing':
      return [col('name'), m('balance'), m('b0_30'), m('b31_60'), m('b61_90'), m('b90'), col('oldestDue', 'date'), col('daysOverdue', 'int')];
  }
}

/** Wide tables print across an A4 landscape page; the day book and the short profit tables fit portrait. */
function sizeOf(name: ReportName, report: Row): PageSize {
  if (name === 'daybook' || name === 'purchase-register') return A4;
  if (name === 'profit' && report.by === 'month') return A4;
  return A4_LANDSCAPE;
}

function printCell(c: Col, v: unknown, t: DocT): string {
  if (v === null || v === undefined || v === '') return '';
  switch (c.cell) {
    case 'money':
      return amount(String(v));
    case 'qty':
      return qty(String(v));
    case 'date':
      return date(String(v));
    case 'pct':
      return `${Number(v).toFixed(2)}%`;
    case 'int':
      return String(v);
    case 'text':
      if (c.key === 'cancelled') return v === true ? t('report.cancelledYes') : '';
      if (c.key === 'kind') return t(`report.kinds.${String(v)}`);
      return String(v);
  }
}

const isNum = (c: Col) => c.cell !== 'text' && c.cell !== 'date';

/** The filters the report applied, printed under the title (names from the rows when the filter is an id). */
function filtersOf(name: ReportName, report: Row, t: DocT): string[] {
  const rows = report.rows as Row[];
  const out: string[] = [];
  if (report.clientId) out.push(`${t('report.filters.customer')}: ${String(rows[0]?.customer || `#${String(report.clientId)}`)}`);
  if (report.distributorId) out.push(`${t('report.filters.distributor')}: ${String(rows[0]?.distributor || `#${String(report.distributorId)}`)}`);
  if (report.category) out.push(`${t('report.filters.category')}: ${String(report.category)}`);
  if (report.brand) out.push(`${t('report.filters.brand')}: ${String(report.brand)}`);
  if (name === 'profit') out.push(`${t('report.filters.by')}: ${t(`report.by.${String(report.by)}`)}`);
  if (name === 'ageing') out.push(t(`report.side.${String(report.side)}`));
  return out;
}

function periodOf(name: ReportName, report: Row, today: string, t: DocT): string {
  if (name === 'daybook') return `${t('report.period.day')}: ${date(String(report.date))}`;
  if (report.from && report.to) return `${t('report.period.range')}: ${date(String(report.from))} – ${date(String(report.to))}`;
  return `${t('report.period.asOf')}: ${date(String(report.asOf ?? today))}`;
}

/** The count printed in the totals row: bills, purchases, products or parties. */
function countOf(name: ReportName, report: Row): number {
  const totals = report.totals as Row;
  const n = totals.count ?? totals.products ?? totals.parties;
  return typeof n === 'number' ? n : (report.rows as Row[]).length;
}

const REPORT_CSS = `
.filters { margin: 2.5mm 0; font-size: 9pt; color: #222; }
.filters span + span::before { content: ' · '; color: #888; }
thead { display: table-header-group; }
tr { break-inside: avoid; }
td, th { font-size: 8.5pt; }
td.num { font-variant-numeric: tabular-nums; }
.total td { border-top: 0.3mm solid #444; border-bottom: 0.3mm solid #444; font-weight: 700; background: #f4f4f4; }
.kinds { margin-top: 3mm; font-size: 8.5pt; }
.kinds td { border: none; padding: 0.5mm 1.5mm; }
.empty { padding: 6mm 0; text-align: center; color: #555; }
`;

/** Page numbers and the report's name at every page's foot (Chromium's @page margin boxes). */
function footCss(title: string, t: DocT): string {
  const safe = title.replace(/["\\\n]/g, '');
  const page = t('report.page').replace(/["\\\n]/g, '');
  const of = t('report.of').replace(/["\\\n]/g, '');
  return `@page { @bottom-left { content: "${safe}"; font-family: 'Noto Sans', 'Noto Sans Devanagari', sans-serif; font-size: 7pt; color: #555; }
@bottom-right { content: "${page} " counter(page) " ${of} " counter(pages); font-family: 'Noto Sans', 'Noto Sans Devanagari', sans-serif; font-size: 7pt; color: #555; } }`;
}

export function ReportTemplate(props: { company: CompanyView; name: ReportName; report: Row; today: string; size: PageSize }) {
  const { name, report } = props;
  const t = tOf(props.company);
  const rows = report.rows as Row[];
  const totals = report.totals as Row;
  const cols = columnsOf(name, report);
  const title = t(`report.titles.${name}`);
  const firstTotal = cols.findIndex((c) => c.total !== undefined);
  const byKind = name === 'daybook' ? Object.entries((totals.byKind ?? {}) as Record<string, string>) : [];
  return (
    <Html title={title} size={props.size} lang={langOf(props.company)} margin="10mm 8mm 12mm" css={REPORT_CSS + footCss(`${props.company.name} · ${title}`, t)}>
      <CompanyHeader
        company={props.company}
        right={
          <>
            <h2>{title.toUpperCase()}</h2>
            <div className="muted">
              {t('report.printedOn')}: {date(props.today)}
            </div>
          </>
        }
      />
      <div className="filters">
        <span>{periodOf(name, report, props.today, t)}</span>
        {filtersOf(name, report, t).map((f) => (
          <span key={f}>{f}</span>
        ))}
      </div>
      <table>
        <thead>
          <tr>
            <th>#</th>
            {cols.map((c) => (
              <th key={c.key} className={isNum(c) ? 'num' : undefined}>
                {t(`report.cols.${c.label}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="empty" colSpan={cols.length + 1}>
                {t('report.empty')}
              </td>
            </tr>
          ) : (
            rows.map((r, i) => (
              <tr key={i}>
                <td className="muted">{i + 1}</td>
                {cols.map((c) => (
                  <td key={c.key} className={isNum(c) ? 'num' : undefined}>
                    {printCell(c, r[c.key], t)}
                  </td>
                ))}
              </tr>
            ))
          )}
          <tr className="total">
            <td colSpan={Math.max(1, firstTotal + 1)}>{t('report.total', { count: countOf(name, report) })}</td>
            {cols.slice(Math.max(0, firstTotal)).map((c) => (
              <td key={c.key} className={isNum(c) ? 'num' : undefined}>
                {c.total !== undefined ? printCell(c, totals[c.total], t) : ''}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      {byKind.length > 0 && (
        <table className="kinds">
          <tbody>
            {byKind.map(([k, v]) => (
              <tr key={k}>
                <td>{t(`report.kinds.${k}`)}</td>
                <td className="num">{amount(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Html>
  );
}

/** `?` filters go to reports as they are (it checks them, as for GET /reports/{name}); the document's own options stay here. */
function reportQuery(q: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined && k !== 'download' && k !== 'lang' && k !== 'page' && k !== 'format') out[k] = v;
  return out;
}

/** GET /documents/report/{name}?<the report's filters>: a report printed on A4 with its totals. */
export const reportKind: DocumentKindDef = {
  kind: 'report',
  needsId: true,
  // The reports are the manager's (every /reports route).
  positions: ['manager'],
  async prepare(req, src) {
    const name = req.id ?? '';
    if (!(ReportNames as readonly string[]).includes(name)) throw new NotFoundException(`There is no report '${name}'. Reports: ${ReportNames.join(', ')}.`);
    const reportName = name as ReportName;
    const [company, reply] = await Promise.all([
      companyFor(req, src),
      src.ask(S.reportRows, { companyId: req.companyId, name: reportName, query: reportQuery(req.query), maxRows: MAX_REPORT_ROWS }) as Promise<ReportRowsReply>,
    ]);
    if (reply.more) throw new BadRequestException(`The report has more than ${MAX_REPORT_ROWS} rows; at most ${MAX_REPORT_ROWS} can be printed at once. Narrow the filters or export it as CSV.`);
    const report = reply.report as Row;
    const size = sizeOf(reportName, report);
    const today = src.today();
    return {
      element: <ReportTemplate company={company} name={reportName} report={report} today={today} size={size} />,
      size,
      fileName: `report-${reportName}-${today}.pdf`,
    };
  },
};
