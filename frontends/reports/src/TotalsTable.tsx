import type { ReactNode } from 'react';

/** A column of a report table: its figures right-aligned, its total in the footer when it has one. */
export interface Column<R> {
  /** React's key and the totals cell's data-col (defaults to the label). */
  key?: string;
  label: string;
  /** Figures: right-aligned, tabular digits. */
  num?: boolean;
  cell(row: R): ReactNode;
  /** This column's figure in the totals row (the service's, never summed here). */
  total?: ReactNode;
}

/** The reports' table: rows, a line saying there are none, and a totals row whose first cell is its label. */
export function TotalsTable<R>(props: {
  testId: string;
  columns: Column<R>[];
  rows: R[];
  empty: string;
  totalLabel: string;
  showTotals: boolean;
}) {
  const { columns, rows, testId } = props;
  const keyOf = (c: Column<R>) => c.key ?? c.label;
  const figure = (c: Column<R>) => (c.num ? 'rp-num bk-money' : undefined);
  return (
    <div className="bk-table-wrap">
      <table className="bk-table rp-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={keyOf(c)} scope="col" className={c.num ? 'rp-num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="bk-table__empty" colSpan={columns.length}>
                {props.empty}
              </td>
            </tr>
          ) : (
            rows.map((r, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td key={keyOf(c)} className={figure(c)}>
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
        {props.showTotals && (
          <tfoot>
            <tr data-testid={`${testId}-total`}>
              {columns.map((c, i) => (
                <td key={keyOf(c)} className={figure(c)} data-col={c.key}>
                  {i === 0 ? props.totalLabel : c.total}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
