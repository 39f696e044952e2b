// A stacked bar chart of requests per day (REST and MCP), drawn on the server as inline SVG: no
// script, no inline styles (colours come from the stylesheet's classes), and a text alternative for
// screen readers (the page's table has the same numbers).
import { html, type Html } from './html.js';

export interface DayBar {
  day: string;
  rest: number;
  mcp: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const LEFT = 44;
const BOTTOM = 22;
const TOP = 10;

/** A round upper bound for the axis: 1, 2, 5 times a power of ten. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((m) => m * power).find((m) => m >= value))!;
}

export function dailyChart(bars: DayBar[], labels: { title: string; description: string; format: (n: number) => string }): Html {
  // At least 2, so the middle grid line is a whole number.
  const max = Math.max(2, niceMax(Math.max(0, ...bars.map((b) => b.rest + b.mcp))));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / Math.max(1, bars.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (n: number) => TOP + plotHeight - (n / max) * plotHeight;
  const gridLines = [0, max / 2, max].map((v) => html`
    <line class="axis" x1="${LEFT}" x2="${WIDTH}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"/>
    <text x="${LEFT - 6}" y="${(y(v) + 3).toFixed(1)}" text-anchor="end">${labels.format(v)}</text>`);
  const columns = bars.map((bar, i) => {
    const x = (LEFT + i * slot + (slot - barWidth) / 2).toFixed(1);
    const restTop = y(bar.rest);
    const total = y(bar.rest + bar.mcp);
    const dayNumber = Number(bar.day.slice(8));
    const tick = dayNumber === 1 || dayNumber % 5 === 0 ? html`<text x="${(LEFT + i * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 6}" text-anchor="middle">${dayNumber}</text>` : '';
    return html`
      ${bar.rest > 0 ? html`<rect class="bar-rest" x="${x}" width="${barWidth.toFixed(1)}" y="${restTop.toFixed(1)}" height="${(y(0) - restTop).toFixed(1)}"/>` : ''}
      ${bar.mcp > 0 ? html`<rect class="bar-mcp" x="${x}" width="${barWidth.toFixed(1)}" y="${total.toFixed(1)}" height="${(restTop - total).toFixed(1)}"/>` : ''}
      ${tick}`;
  });
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
    <title id="chart-title">${labels.title}</title><desc id="chart-desc">${labels.description}</desc>
    ${gridLines}${columns}
  </svg>`;
}
