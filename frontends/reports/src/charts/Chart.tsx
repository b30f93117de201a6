import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@bahi/i18n';
import type { EChartsType } from './echarts';
import { buildOption, cellText, type ChartKind, type ChartSeries } from './options';
import './charts.css';

export type { ChartKind, ChartSeries, Figure } from './options';

export interface ChartProps {
  kind: ChartKind;
  /** What the chart shows: the figure's caption, its accessible name and the table's caption. */
  title: string;
  /** The table's first column heading (e.g. "Date", "Product"). */
  categoryLabel: string;
  categories: string[];
  series: ChartSeries[];
  /** Rupee amounts (the default): en-IN with lakh grouping on axes, tooltips and the table. */
  money?: boolean;
  horizontal?: boolean;
  height?: number;
  colors?: string[];
  /** Show the caption above the chart (off when a Card title already says it). */
  showTitle?: boolean;
  testId?: string;
}

/**
 * One chart of the reports remote. ECharts loads on first use (its own chunk, after the page's
 * figures have painted); the chart follows its box's size and is disposed on unmount. The same
 * figures are always in a table: hidden for screen readers only, or shown with "Show figures"
 * (and shown at once if the chart library cannot load).
 */
export function Chart({
  kind,
  title,
  categoryLabel,
  categories,
  series,
  money = true,
  horizontal = false,
  height = 260,
  colors,
  showTitle = false,
  testId,
}: ChartProps) {
  const { t } = useTranslation('reports');
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const [tableShown, setTableShown] = useState(false);
  const tableId = useId();

  // Callers build new arrays every render: redraw only when the figures themselves change.
  const dataKey = JSON.stringify([kind, categories, series, money, horizontal, colors]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const option = useMemo(() => buildOption({ kind, categories, series, money, horizontal, colors }), [dataKey]);

  useEffect(() => {
    let gone = false;
    let observer: ResizeObserver | undefined;
    import('./echarts').then(
      ({ createChart }) => {
        if (gone || !box.current) return;
        chart.current = createChart(box.current);
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(box.current);
        setReady(true);
      },
      () => {
        if (!gone) setFailed(true);
      },
    );
    return () => {
      gone = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (ready) chart.current?.setOption(option, { notMerge: true });
  }, [ready, option]);

  const showTable = tableShown || failed;
  return (
    <figure className="ch-figure" data-testid={testId} data-ready={ready ? 'yes' : 'no'}>
      {showTitle && <figcaption className="ch-title">{title}</figcaption>}
      {!failed && (
        <div
          ref={box}
          className={`ch-box${ready ? '' : ' ch-box--loading'}`}
          style={{ height }}
          role="img"
          aria-label={title}
          aria-describedby={tableId}
          aria-busy={!ready}
        />
      )}
      <div className="ch-actions">
        {!failed && (
          <button type="button" className="ch-toggle" aria-expanded={tableShown} aria-controls={tableId} onClick={() => setTableShown((v) => !v)}>
            {tableShown ? t('dashboard.chart.hideFigures') : t('dashboard.chart.showFigures')}
          </button>
        )}
      </div>
      <div className={showTable ? 'bk-table-wrap ch-table-wrap' : 'bk-sr-only'}>
        <table id={tableId} className="bk-table ch-table" data-testid={testId ? `${testId}-table` : undefined}>
          <caption className="bk-sr-only">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{categoryLabel}</th>
              {series.map((s) => (
                <th key={s.name} scope="col" className="ch-num">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {categories.map((c, i) => (
              <tr key={`${c}-${i}`}>
                <th scope="row">{c}</th>
                {series.map((s) => (
                  <td key={s.name} className="ch-num">
                    {cellText(s.data[i] ?? 0, money)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
