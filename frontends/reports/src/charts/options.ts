// Turns a chart's plain description into an ECharts option. Pure, so it is tested without a DOM.
// The pure formatter file, not the package index (React components the tests need not load).
import { formatINR } from '@bahi/ui-kit/src/format';

export type ChartKind = 'line' | 'bar' | 'pie';
/** Figures arrive as the API's decimal strings or as numbers. */
export type Figure = number | string;

export interface ChartSeries {
  name: string;
  data: Figure[];
}

export interface ChartSpec {
  kind: ChartKind;
  categories: string[];
  series: ChartSeries[];
  /** Rupee amounts (en-IN, lakh grouping) on axes and tooltips; plain numbers otherwise. */
  money?: boolean;
  /** Bars run sideways with the categories down the left (long product names). */
  horizontal?: boolean;
  colors?: string[];
}

/** The ui-kit palette: primary, success, warning, danger, then neutrals. */
export const PALETTE = ['#1f5fbf', '#1d7a46', '#d08a00', '#b42318', '#6b4fbb', '#0f8b8d', '#5b6675'];

export const toNumber = (v: Figure): number => {
  const x = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(x) ? x : 0;
};

/** Axis labels: whole rupees with Indian grouping (₹1,50,000); tooltips keep the paise. */
export const axisAmount = (v: number): string => formatINR(Math.round(v), 0);
export const tipAmount = (v: Figure): string => formatINR(v);
const plain = (v: Figure): string => new Intl.NumberFormat('en-IN').format(toNumber(v));

/** Long category names are cut on the axis; the tooltip and the table keep them whole. */
export function shorten(label: string, max = 18): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/**
 * A bucket's label on lines of about `max` characters, broken only between words: ECharts' own
 * `overflow: 'break'` cuts Devanagari inside a word ("ज़्यादा" over several lines).
 */
export function wrapWords(label: string, max = 10): string {
  const lines: string[] = [];
  for (const w of label.split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 1 + w.length <= max) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return lines.join('\n');
}

/** True when every figure is 0 (a new company): the value axis then shows no figures at all. */
export const allZero = (spec: ChartSpec): boolean => spec.series.every((s) => s.data.every((v) => toNumber(v) === 0));

export function buildOption(spec: ChartSpec): Record<string, unknown> {
  const fmt = spec.money === false ? plain : tipAmount;
  const axisFmt = spec.money === false ? (v: number) => plain(v) : axisAmount;
  const color = spec.colors ?? PALETTE;
  const textStyle = { fontFamily: 'inherit', color: '#1b2430' };

  if (spec.kind === 'pie') {
    const s = spec.series[0] ?? { name: '', data: [] };
    return {
      color,
      textStyle,
      animation: false,
      tooltip: { trigger: 'item', valueFormatter: (v: Figure) => fmt(v), confine: true },
      legend: { bottom: 0, type: 'scroll' },
      series: [
        {
          type: 'pie',
          name: s.name,
          radius: ['42%', '70%'],
          center: ['50%', '44%'],
          avoidLabelOverlap: true,
          label: { show: false },
          data: spec.categories.map((name, i) => ({ name, value: toNumber(s.data[i] ?? 0) })),
        },
      ],
    };
  }

  const categoryAxis = {
    type: 'category',
    data: spec.categories,
    axisTick: { alignWithLabel: true },
    // A few categories (buckets): every label shown, wrapped; many (days): the axis thins them.
    axisLabel: spec.horizontal
      ? { formatter: (v: string) => shorten(v), width: 130 }
      : spec.categories.length <= 8
        ? { interval: 0, formatter: (v: string) => wrapWords(v), fontSize: 11, lineHeight: 13 }
        : { hideOverlap: true },
    ...(spec.horizontal ? { inverse: true } : {}),
  };
  const empty = allZero(spec);
  // Whole rupees/units between ticks, so small ranges never read "₹0 ₹0 ₹1 ₹1"; nothing to read when all is 0.
  const valueAxis = {
    type: 'value',
    minInterval: 1,
    ...(empty ? { min: 0, max: 1 } : {}),
    axisLabel: empty ? { show: false } : { formatter: axisFmt, hideOverlap: true },
    splitLine: { lineStyle: { color: '#eef1f5' } },
  };
  return {
    color,
    textStyle,
    animation: false,
    tooltip: { trigger: 'axis', valueFormatter: (v: Figure) => fmt(v), confine: true },
    legend: spec.series.length > 1 ? { top: 0, type: spec.series.length > 4 ? 'scroll' : 'plain' } : { show: false },
    grid: { left: 8, right: 16, top: spec.series.length > 1 ? 32 : 12, bottom: 8, containLabel: true },
    xAxis: spec.horizontal ? valueAxis : categoryAxis,
    yAxis: spec.horizontal ? categoryAxis : valueAxis,
    series: spec.series.map((s) => ({
      type: spec.kind,
      name: s.name,
      data: s.data.map(toNumber),
      ...(spec.kind === 'line' ? { smooth: false, symbolSize: 5, showSymbol: spec.categories.length <= 31 } : { barMaxWidth: 28 }),
    })),
  };
}

/** A figure as the chart's table shows it: the API's exact decimal, not the float the chart drew. */
export function cellText(v: Figure, money = true): string {
  return money ? tipAmount(v) : plain(v);
}
