// The chart components: scales, the summary and title, the table fallback equal to the data,
// the "Ver tabla" toggle, the limit as a step, numbers in each locale, and no style attribute anywhere.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart, CHART_FRAME } from '../../src/views/charts/bar-chart';
import { BarList } from '../../src/views/charts/bar-list';
import { StackedBar } from '../../src/views/charts/stacked-bar';
import { Meter } from '../../src/views/charts/meter';
import { formatNumber, layoutBars, niceMax, peak, shareOf, ticks, type BarDatum } from '../../src/views/charts/scale';

afterEach(cleanup);

const LABELS = { period: 'Mes', value: 'SMS usados', limit: 'Límite', showTable: 'Ver tabla', hideTable: 'Ocultar tabla' };
const DATA: BarDatum[] = [
  { key: '2026-03', label: 'mar', longLabel: 'marzo de 2026', value: 4210, limit: 5000 },
  { key: '2026-04', label: 'abr', longLabel: 'abril de 2026', value: 3900, limit: 5000 },
  { key: '2026-05', label: 'may', longLabel: 'mayo de 2026', value: 6100, limit: 6000 },
  { key: '2026-06', label: 'jun', longLabel: 'junio de 2026', value: 0, limit: null },
];

const noStyle = (container: HTMLElement) => {
  expect(container.querySelectorAll('[style]').length, 'elements with a style attribute').toBe(0);
  expect(container.innerHTML).not.toMatch(/style=/);
};

describe('scales', () => {
  it('picks a round top at or above the highest value', () => {
    expect([0, 1, 7, 10, 11, 23, 240, 4210, 5000, 6100, 99_999].map(niceMax)).toEqual([
      1, 1, 10, 10, 20, 25, 250, 5000, 5000, 10_000, 100_000,
    ]);
  });
  it('spaces the ticks evenly from 0 to the top', () => {
    expect(ticks(5000)).toEqual([0, 1250, 2500, 3750, 5000]);
    expect(ticks(10, 2)).toEqual([0, 5, 10]);
  });
  it('lays every bar inside the frame, its height proportional to its value, the limit above or below it', () => {
    const layout = layoutBars(DATA, CHART_FRAME);
    expect(layout.top).toBe(10_000);
    const plot = CHART_FRAME.height - CHART_FRAME.top - CHART_FRAME.bottom;
    for (const [i, bar] of layout.bars.entries()) {
      const d = DATA[i] as BarDatum;
      expect(bar.key).toBe(d.key);
      expect(bar.x).toBeGreaterThanOrEqual(CHART_FRAME.left);
      expect(bar.x + bar.width).toBeLessThanOrEqual(CHART_FRAME.width - CHART_FRAME.right + 0.1);
      expect(bar.y + bar.height).toBeCloseTo(layout.baseline, 0);
      expect(bar.height).toBeCloseTo((d.value / layout.top) * plot, 0);
      if (d.limit == null) expect(bar.limitY).toBeNull();
      else expect(layout.baseline - (bar.limitY as number)).toBeCloseTo((d.limit / layout.top) * plot, 0);
    }
    // Bars in order, left to right, none overlapping.
    for (let i = 1; i < layout.bars.length; i++)
      expect(layout.bars[i]!.x).toBeGreaterThan(layout.bars[i - 1]!.x + layout.bars[i - 1]!.width);
    // The limit is one step across the slots that have one (joined), broken where a bar has none.
    expect(layout.limitPath.match(/M/g)?.length).toBe(1);
    expect(layout.limitPath.match(/L/g)?.length).toBe(5);
  });
  it('draws no limit when no bar has one, and an empty chart on an axis of 1', () => {
    expect(layoutBars([{ key: 'a', label: 'a', value: 3 }]).limitPath).toBe('');
    const empty = layoutBars([]);
    expect(empty.bars).toEqual([]);
    expect(empty.top).toBe(1);
  });
  it('finds the peak (the first of equals, none when all are zero) and shares', () => {
    expect(peak(DATA)?.key).toBe('2026-05');
    expect(
      peak([
        { value: 2, k: 1 },
        { value: 2, k: 2 },
      ])?.k,
    ).toBe(1);
    expect(peak([{ value: 0 }])).toBeNull();
    expect([shareOf(5, 10), shareOf(20, 10), shareOf(1, 0), shareOf(-1, 10)]).toEqual([0.5, 1, 0, 0]);
  });
  it('writes numbers the way each country reads them', () => {
    expect(formatNumber(4210, 'es-CL')).toBe('4.210');
    expect(formatNumber(4210, 'es-MX')).toBe('4,210');
    expect(formatNumber(1_234_567, 'es-CL')).toBe('1.234.567');
  });
});

describe('BarChart', () => {
  const summary = 'Mayo es el mes con más SMS: 6.100 de 6.000';
  const renderChart = (locale = 'es-CL', data = DATA) =>
    render(<BarChart title="SMS por mes, 2026" summary={summary} data={data} locale={locale} labels={LABELS} />);

  it('is an image named by its title and summary, one bar per datum, the axis in the locale', () => {
    const { container } = renderChart();
    const image = screen.getByRole('img', { name: `SMS por mes, 2026 ${summary}` });
    expect(image.querySelector('title')?.textContent).toBe('SMS por mes, 2026');
    expect(image.querySelectorAll('[data-slot=bar]')).toHaveLength(DATA.length);
    expect(screen.getByText(summary)).toBeTruthy();
    const axis = [...container.querySelectorAll('[data-slot=bar-chart-axis] text')].map((n) => n.textContent);
    expect(axis).toEqual(['0', '2.500', '5.000', '7.500', '10.000']);
    // The bar over its limit is marked, the others not.
    const classes = [...image.querySelectorAll('[data-slot=bar]')].map((n) => n.getAttribute('class'));
    expect(classes).toEqual(['fill-primary', 'fill-primary', 'fill-destructive', 'fill-primary']);
    expect(image.querySelector('[data-slot=bar-chart-limit]')?.getAttribute('d')).toBe(layoutBars(DATA, CHART_FRAME).limitPath);
    noStyle(container);
  });

  it('has a table equal to the data, hidden to the eye until "Ver tabla", always there for screen readers', () => {
    const { container } = renderChart();
    const table = screen.getByRole('table', { name: 'SMS por mes, 2026' });
    // Hidden in an sr-only box (a table ignores overflow: sr-only on itself stretched a phone sideways).
    const box = table.closest('[data-slot=bar-chart-table-box]') as HTMLElement;
    expect(box.className).toContain('sr-only');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual(
      DATA.map((d) => [d.longLabel, formatNumber(d.value, 'es-CL'), d.limit == null ? '—' : formatNumber(d.limit, 'es-CL')]),
    );
    const toggle = screen.getByRole('button', { name: 'Ver tabla' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBe(table.id);
    fireEvent.click(toggle);
    expect(box.className).not.toContain('sr-only');
    expect(screen.getByRole('button', { name: 'Ocultar tabla' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar tabla' }));
    expect(box.className).toContain('sr-only');
    noStyle(container);
  });

  it('writes es-MX numbers and leaves the limit column out when no bar has a limit', () => {
    renderChart('es-MX', [{ key: '2025', label: '2025', value: 48_210 }]);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((n) => n.textContent),
    ).toEqual(['Mes', 'SMS usados']);
    expect(within(table).getByText('48,210')).toBeTruthy();
    expect(document.querySelector('[data-slot=bar-chart-limit]')).toBeNull();
  });
});

describe('StackedBar', () => {
  const SEGMENTS = [
    { key: 'blue', label: 'App instalada', value: 30, fillClassName: 'fill-sky-600' },
    { key: 'green', label: 'Solo SMS', value: 1_200, fillClassName: 'fill-emerald-600' },
    { key: 'yellow', label: 'Irregular', value: 0, fillClassName: 'fill-amber-500' },
    { key: 'red', label: 'Sin registro', value: 270, fillClassName: 'fill-red-600' },
  ];
  const STACK_LABELS = { category: 'Estado', value: 'Apoderados', share: 'Porcentaje', showTable: 'Ver tabla', hideTable: 'Ocultar tabla' };
  const summary = '1.500 apoderados: 30 con la app, 1.200 solo SMS, 270 sin registro.';

  it('is an image named by its title and summary, one box per non-empty segment, its table the data with shares', () => {
    const { container } = render(
      <StackedBar title="Dispositivos" summary={summary} segments={SEGMENTS} locale="es-CL" labels={STACK_LABELS} />,
    );
    const image = screen.getByRole('img', { name: `Dispositivos ${summary}` });
    expect(
      [...image.querySelectorAll('[data-slot=stacked-bar-segment]')].map((n) => [
        n.getAttribute('data-key'),
        n.getAttribute('x'),
        n.getAttribute('width'),
      ]),
    ).toEqual([
      ['blue', '0', '2'],
      ['green', '2', '80'],
      ['red', '82', '18'],
    ]);
    const table = screen.getByRole('table', { name: 'Dispositivos' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((n) => n.textContent),
    ).toEqual(['Estado', 'Apoderados', 'Porcentaje']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['App instalada', '30', '2 %'],
      ['Solo SMS', '1.200', '80 %'],
      ['Irregular', '0', '0 %'],
      ['Sin registro', '270', '18 %'],
    ]);
    const box = table.closest('[data-slot=stacked-bar-table-box]') as HTMLElement;
    expect(box.className).toContain('sr-only');
    const toggle = screen.getByRole('button', { name: 'Ver tabla' });
    expect(toggle.getAttribute('aria-controls')).toBe(table.id);
    fireEvent.click(toggle);
    expect(box.className).not.toContain('sr-only');
    expect(screen.getByRole('button', { name: 'Ocultar tabla' }).getAttribute('aria-expanded')).toBe('true');
    noStyle(container);
  });
});

describe('BarList', () => {
  it('lists the items in order with their figures, each bar its share of the first', () => {
    const { container } = render(
      <BarList
        title="Quién usó más SMS"
        locale="es-CL"
        empty="Nadie ha enviado SMS este mes."
        formatValue={(v) => `${formatNumber(v, 'es-CL')} SMS`}
        items={[
          { key: '1', label: 'Ana Pérez', value: 1200, detail: '12 mensajes' },
          { key: '2', label: 'Luis Soto', value: 300 },
        ]}
      />,
    );
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Ana Pérez1.200 SMS12 mensajes', 'Luis Soto300 SMS']);
    const widths = items.map((item) => item.querySelectorAll('rect')[1]?.getAttribute('width'));
    expect(widths).toEqual(['100', '25']);
    expect(screen.getByRole('region', { name: 'Quién usó más SMS' })).toBeTruthy();
    noStyle(container);
  });
  it('says so when there is nobody', () => {
    render(<BarList title="Cursos" locale="es-CL" empty="Ningún curso recibió SMS este mes." items={[]} />);
    expect(screen.getByText('Ningún curso recibió SMS este mes.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('Meter', () => {
  it('is a meter with its figures and draws the used share and the reserve without styles', () => {
    const { container } = render(<Meter label="Usado este mes" value={4210} max={5000} reserved={500} valueText="4.210 de 5.000 SMS" />);
    const meter = screen.getByRole('meter', { name: 'Usado este mes' });
    expect([meter.getAttribute('aria-valuenow'), meter.getAttribute('aria-valuemax'), meter.getAttribute('aria-valuetext')]).toEqual([
      '4210',
      '5000',
      '4.210 de 5.000 SMS',
    ]);
    expect(container.querySelector('[data-slot=meter-used]')?.getAttribute('width')).toBe('84.2');
    expect(container.querySelector('[data-slot=meter-reserved]')?.getAttribute('x')).toBe('90');
    noStyle(container);
  });
});
