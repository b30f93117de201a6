import { allZero, axisAmount, buildOption, cellText, shorten, tipAmount, toNumber, wrapWords } from './options';

describe('chart options', () => {
  test('amounts on axes are whole rupees with lakh grouping; tooltips and tables keep the paise', () => {
    expect(axisAmount(1234567.89)).toBe('₹12,34,568');
    expect(tipAmount('1234567.80')).toBe('₹12,34,567.80');
    // The table shows the API's decimal exactly, not a float: 0.1 + 0.2 would print 0.30000000000000004.
    expect(cellText('100000.05')).toBe('₹1,00,000.05');
    expect(cellText(150000, false)).toBe('1,50,000');
  });

  test('a line chart of two series: one category axis of the dates, numbers from decimal strings', () => {
    const o = buildOption({
      kind: 'line',
      categories: ['01-11', '02-11'],
      series: [
        { name: 'Sales', data: ['100.50', '0.00'] },
        { name: 'Collections', data: ['20.00', 'x'] },
      ],
    }) as { xAxis: { type: string; data: string[] }; yAxis: { type: string; axisLabel: { formatter: (v: number) => string } }; series: { type: string; data: number[] }[]; legend: { show?: boolean } };
    expect(o.xAxis).toMatchObject({ type: 'category', data: ['01-11', '02-11'] });
    expect(o.yAxis.type).toBe('value');
    expect(o.yAxis.axisLabel.formatter(250000)).toBe('₹2,50,000');
    expect(o.series.map((s) => [s.type, s.data])).toEqual([
      ['line', [100.5, 0]],
      ['line', [20, 0]], // an unreadable figure draws as 0 rather than breaking the chart
    ]);
    expect(o.legend.show).not.toBe(false);
  });

  test('a sideways bar chart puts the categories down the left, first at the top', () => {
    const o = buildOption({ kind: 'bar', horizontal: true, categories: ['A very long product name indeed', 'B'], series: [{ name: 'Value', data: [5, 3] }] }) as {
      xAxis: { type: string };
      yAxis: { type: string; inverse: boolean; axisLabel: { formatter: (v: string) => string } };
      legend: { show: boolean };
    };
    expect(o.xAxis.type).toBe('value');
    expect(o.yAxis).toMatchObject({ type: 'category', inverse: true });
    expect(o.yAxis.axisLabel.formatter('A very long product name indeed')).toBe('A very long produ…');
    expect(o.legend.show).toBe(false);
    expect(shorten('Short')).toBe('Short');
  });

  test('a pie pairs each category with its figure', () => {
    const o = buildOption({ kind: 'pie', categories: ['0-30', '31-60'], series: [{ name: 'Due', data: ['10.00', '5.50'] }] }) as {
      series: { type: string; data: { name: string; value: number }[] }[];
    };
    expect(o.series[0].type).toBe('pie');
    expect(o.series[0].data).toEqual([
      { name: '0-30', value: 10 },
      { name: '31-60', value: 5.5 },
    ]);
    expect(toNumber('abc')).toBe(0);
  });
});

describe('issue 32: Hindi bucket labels and empty charts', () => {
  it('breaks a bucket label only between words', () => {
    expect(wrapWords('90 दिन से ज़्यादा')).toBe('90 दिन से\nज़्यादा');
    expect(wrapWords('More than 90 days')).toBe('More than\n90 days');
    expect(wrapWords('0-30 दिन')).toBe('0-30 दिन');
    // A word longer than a line stays whole on its own line.
    expect(wrapWords('Overdueforever now', 6)).toBe('Overdueforever\nnow');
  });

  it('an all-zero chart has no axis figures; one with figures keeps them on whole steps', () => {
    const empty = buildOption({ kind: 'bar', categories: ['a', 'b'], series: [{ name: 's', data: ['0', '0.00'] }] }) as any;
    expect(empty.yAxis).toMatchObject({ min: 0, max: 1, axisLabel: { show: false } });
    expect(allZero({ kind: 'line', categories: ['a'], series: [{ name: 's', data: [0] }, { name: 't', data: ['0.01'] }] })).toBe(false);
    const some = buildOption({ kind: 'bar', categories: ['a', 'b'], series: [{ name: 's', data: ['0', '1.50'] }] }) as any;
    expect(some.yAxis.minInterval).toBe(1);
    expect(some.yAxis.axisLabel.formatter(1)).toBe('₹1');
    expect(some.yAxis.min).toBeUndefined();
  });
});
