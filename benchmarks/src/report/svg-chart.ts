/**
 * Draws the results of one mode as an SVG bar chart, by hand (no browser, no library): one group per
 * scenario, one bar per server (median req/s), a whisker from the slowest to the fastest round, and the
 * value with the ratio to raw uWebSockets.js at the end of each bar.
 */
import type { Mode } from '../runner/results';
import type { Scenario } from '../scenarios/scenario';
import { RAW_SERVER_ID } from '../servers/registry';
import { formatPercent, formatRps } from './format';
import type { ResultRow } from './summarize';

const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
  '#bcbd22',
];
const LEFT = 230;
const BAR_AREA = 520;
const RIGHT = 190;
const BAR_HEIGHT = 14;
const BAR_GAP = 3;
const GROUP_GAP = 18;
const TOP = 56;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceMaximum(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

export function renderChart(
  rows: ResultRow[],
  scenarios: Scenario[],
  mode: Mode,
  servers: string[],
  title: string,
): string {
  const modeRows = rows.filter((row) => row.mode === mode);
  const groups = scenarios
    .map((scenario) => ({
      scenario,
      rows: servers
        .map((server) => modeRows.find((row) => row.scenario === scenario.id && row.server === server))
        .filter((row): row is ResultRow => !!row),
    }))
    .filter((group) => group.rows.length > 0);
  const scaleMax = niceMaximum(Math.max(0, ...modeRows.map((row) => row.rpsMax)));
  const x = (value: number) => LEFT + (value / scaleMax) * BAR_AREA;
  const width = LEFT + BAR_AREA + RIGHT;
  const parts: string[] = [];
  let y = TOP;

  for (const group of groups) {
    parts.push(
      `<text x="10" y="${y + 11}" class="group">${escapeXml(`#${group.scenario.id} ${group.scenario.title}`)}</text>`,
    );
    y += 18;
    for (const row of group.rows) {
      const color = PALETTE[servers.indexOf(row.server) % PALETTE.length];
      const barEnd = x(row.rpsMedian);
      parts.push(
        `<text x="${LEFT - 8}" y="${y + 11}" class="label" text-anchor="end">${escapeXml(row.serverLabel)}</text>`,
      );
      parts.push(
        `<rect x="${LEFT}" y="${y}" width="${Math.max(0.5, barEnd - LEFT).toFixed(1)}" height="${BAR_HEIGHT}" fill="${color}"/>`,
      );
      if (row.rounds > 1) {
        const middle = y + BAR_HEIGHT / 2;
        parts.push(
          `<line x1="${x(row.rpsMin).toFixed(1)}" x2="${x(row.rpsMax).toFixed(1)}" y1="${middle}" y2="${middle}" class="whisker"/>`,
        );
      }
      const ratio =
        row.server === RAW_SERVER_ID || row.ratioToRaw === undefined
          ? ''
          : ` (${formatPercent(row.ratioToRaw)} of raw)`;
      parts.push(
        `<text x="${(Math.max(barEnd, x(row.rpsMax)) + 6).toFixed(1)}" y="${y + 11}" class="value">${escapeXml(`${formatRps(row.rpsMedian)}${ratio}`)}</text>`,
      );
      y += BAR_HEIGHT + BAR_GAP;
    }
    y += GROUP_GAP;
  }

  const axisY = y;
  for (let tick = 0; tick <= 4; tick++) {
    const value = (scaleMax / 4) * tick;
    const tickX = x(value).toFixed(1);
    parts.push(`<line x1="${tickX}" x2="${tickX}" y1="${TOP - 6}" y2="${axisY}" class="grid"/>`);
    parts.push(`<text x="${tickX}" y="${axisY + 14}" class="tick" text-anchor="middle">${formatRps(value)}</text>`);
  }
  const height = axisY + 36;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>.title{font-size:16px;font-weight:bold}.subtitle{font-size:11px;fill:#555}.group{font-size:12px;font-weight:bold}.label,.value{font-size:11px}.tick{font-size:10px;fill:#555}.grid{stroke:#ddd;stroke-width:1}.whisker{stroke:#000;stroke-width:1.2}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="10" y="22" class="title">${escapeXml(title)}</text>`,
    `<text x="10" y="40" class="subtitle">requests per second, median over rounds; whisker: slowest to fastest round</text>`,
    ...parts,
    `<text x="${LEFT + BAR_AREA / 2}" y="${axisY + 30}" class="tick" text-anchor="middle">requests per second</text>`,
    '</svg>',
    '',
  ].join('\n');
}
