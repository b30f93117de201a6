// The only module that imports ECharts: just the charts and components Bahi draws, so the lazily
// loaded chunk stays small. Chart.tsx imports this with import(), never statically.
import { init, use, type EChartsType } from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

use([LineChart, BarChart, PieChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

export function createChart(el: HTMLElement): EChartsType {
  // SVG: crisp at any zoom and cheap for the few hundred shapes a report draws.
  return init(el, undefined, { renderer: 'svg' });
}

export type { EChartsType };
