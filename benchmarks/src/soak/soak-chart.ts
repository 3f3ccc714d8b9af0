/**
 * Draws one target's soak as an SVG line chart, by hand like the benchmark's bar charts: server RSS (left axis)
 * and requests per second (right axis) per interval over time, the warm-up shaded, the RSS regression line
 * after warm-up dashed, and intervals with errors marked in red.
 */
import { formatRps } from '../report/format';
import { judgedRss } from './flatness';
import type { TargetRun } from './soak-results';

const WIDTH = 860;
const HEIGHT = 400;
const LEFT = 70;
const RIGHT = 80;
const TOP = 70;
const BOTTOM = 50;
const RSS_COLOR = '#1f77b4';
const RPS_COLOR = '#ff7f0e';
const ERROR_COLOR = '#d62728';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceMaximum(value: number): number {
  if (!(value > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function polyline(points: Array<[number, number]>, color: string, extra = ''): string {
  const text = points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  return `<polyline points="${text}" fill="none" stroke="${color}" stroke-width="2"${extra}/>`;
}

export function renderSoakChart(run: TargetRun): string {
  const samples = run.samples;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const endSec = Math.max(run.durationSec, samples.at(-1)?.elapsedSec ?? 0, 1);
  const endMin = endSec / 60;
  const rssValues = samples.map(judgedRss).filter(Number.isFinite);
  const rssMax = niceMaximum(Math.max(run.idleRssMB || 0, ...rssValues) * 1.1);
  const rpsMax = niceMaximum(Math.max(0, ...samples.map((sample) => sample.requestsPerSec)) * 1.1);
  const x = (seconds: number) => LEFT + (seconds / endSec) * plotWidth;
  const yRss = (mb: number) => TOP + plotHeight - (mb / rssMax) * plotHeight;
  const yRps = (rps: number) => TOP + plotHeight - (rps / rpsMax) * plotHeight;
  const parts: string[] = [];

  // Warm-up, left out of the flatness criterion.
  const warmup = run.verdict.rss.warmupSamples;
  if (warmup > 0 && samples[warmup - 1]) {
    const warmEnd = x(samples[warmup - 1].elapsedSec);
    parts.push(
      `<rect x="${LEFT}" y="${TOP}" width="${(warmEnd - LEFT).toFixed(1)}" height="${plotHeight}" fill="#f0f0f0"/>`,
    );
    parts.push(`<text x="${(LEFT + 4).toFixed(1)}" y="${TOP + 12}" class="tick">warm-up</text>`);
  }

  // Grid and axes: RSS on the left, req/s on the right, minutes below.
  for (let tick = 0; tick <= 5; tick++) {
    const y = TOP + plotHeight - (plotHeight / 5) * tick;
    parts.push(`<line x1="${LEFT}" x2="${LEFT + plotWidth}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}" class="grid"/>`);
    parts.push(
      `<text x="${LEFT - 6}" y="${(y + 4).toFixed(1)}" class="tick" text-anchor="end" fill="${RSS_COLOR}">${((rssMax / 5) * tick).toFixed(0)}</text>`,
    );
    parts.push(
      `<text x="${LEFT + plotWidth + 6}" y="${(y + 4).toFixed(1)}" class="tick" fill="${RPS_COLOR}">${rpsMax < 10 ? ((rpsMax / 5) * tick).toFixed(2) : formatRps((rpsMax / 5) * tick)}</text>`,
    );
  }
  const minuteStep = endMin <= 2 ? 0.25 : endMin <= 5 ? 0.5 : endMin <= 12 ? 1 : endMin <= 30 ? 5 : 10;
  for (let minute = 0; minute <= endMin + 1e-9; minute += minuteStep) {
    const tickX = x(minute * 60);
    parts.push(
      `<line x1="${tickX.toFixed(1)}" x2="${tickX.toFixed(1)}" y1="${TOP}" y2="${TOP + plotHeight}" class="grid"/>`,
    );
    parts.push(
      `<text x="${tickX.toFixed(1)}" y="${TOP + plotHeight + 16}" class="tick" text-anchor="middle">${Number(minute.toFixed(2))}</text>`,
    );
  }
  parts.push(`<rect x="${LEFT}" y="${TOP}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#999"/>`);
  parts.push(
    `<text x="${LEFT + plotWidth / 2}" y="${HEIGHT - 12}" class="tick" text-anchor="middle">minutes of load</text>`,
  );
  parts.push(
    `<text x="16" y="${TOP + plotHeight / 2}" class="axis" fill="${RSS_COLOR}" transform="rotate(-90 16 ${TOP + plotHeight / 2})" text-anchor="middle">server RSS, MB</text>`,
  );
  parts.push(
    `<text x="${WIDTH - 14}" y="${TOP + plotHeight / 2}" class="axis" fill="${RPS_COLOR}" transform="rotate(90 ${WIDTH - 14} ${TOP + plotHeight / 2})" text-anchor="middle">requests per second</text>`,
  );

  // The lines start at the idle server (time 0) for RSS; req/s has a point per interval.
  const rssPoints: Array<[number, number]> = [];
  if (Number.isFinite(run.idleRssMB)) rssPoints.push([x(0), yRss(run.idleRssMB)]);
  for (const sample of samples)
    if (Number.isFinite(judgedRss(sample))) rssPoints.push([x(sample.elapsedSec), yRss(judgedRss(sample))]);
  parts.push(
    polyline(
      samples.map((sample) => [x(sample.elapsedSec), yRps(sample.requestsPerSec)]),
      RPS_COLOR,
    ),
  );
  parts.push(polyline(rssPoints, RSS_COLOR));

  // Regression line of RSS after warm-up, over the samples it was fitted to.
  const measured = samples.slice(warmup).filter((sample) => Number.isFinite(judgedRss(sample)));
  const slope = run.verdict.rss.slopeMBPerMin;
  if (measured.length >= 2 && Number.isFinite(slope)) {
    const meanX = measured.reduce((total, sample) => total + sample.elapsedSec / 60, 0) / measured.length;
    const meanY = measured.reduce((total, sample) => total + judgedRss(sample), 0) / measured.length;
    const at = (seconds: number) => meanY + slope * (seconds / 60 - meanX);
    const first = measured[0].elapsedSec;
    const last = measured.at(-1)!.elapsedSec;
    parts.push(
      `<line x1="${x(first).toFixed(1)}" y1="${yRss(at(first)).toFixed(1)}" x2="${x(last).toFixed(1)}" y2="${yRss(at(last)).toFixed(1)}" stroke="#000" stroke-width="1" stroke-dasharray="5,4"/>`,
    );
  }
  for (const sample of samples.filter((candidate) => candidate.errors > 0)) {
    parts.push(
      `<circle cx="${x(sample.elapsedSec).toFixed(1)}" cy="${(TOP + plotHeight - 4).toFixed(1)}" r="4" fill="${ERROR_COLOR}"><title>${sample.errors} errors</title></circle>`,
    );
  }

  const verdict = run.verdict;
  const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
  const subtitle =
    `${verdict.pass ? 'PASS' : 'FAIL'}: ${verdict.errors} errors; RSS after warm-up ${fixed(verdict.rss.minMB, 0)}-${fixed(verdict.rss.maxMB, 0)} MB, ` +
    `slope ${fixed(verdict.rss.slopeMBPerMin, 2)} MB/min, largest rise ${fixed(verdict.rss.riseMB, 1)} MB; mean ${formatRps(run.meanRequestsPerSec)} req/s; ` +
    `${run.intervalSec} s intervals; load average ${run.loadAverage.min.toFixed(1)}-${run.loadAverage.max.toFixed(1)}`;
  const legendY = TOP - 14;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
    '<style>.title{font-size:16px;font-weight:bold}.subtitle{font-size:11px;fill:#555}.tick{font-size:10px;fill:#555}.axis{font-size:11px}.legend{font-size:11px}.grid{stroke:#e3e3e3;stroke-width:1}</style>',
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="10" y="22" class="title">${escapeXml(`Soak: ${run.target}, ${run.label}, ${Math.round((run.durationSec / 60) * 10) / 10} min`)}</text>`,
    `<text x="10" y="40" class="subtitle">${escapeXml(subtitle)}</text>`,
    ...parts,
    `<line x1="${LEFT}" x2="${LEFT + 24}" y1="${legendY}" y2="${legendY}" stroke="${RSS_COLOR}" stroke-width="2"/>`,
    `<text x="${LEFT + 30}" y="${legendY + 4}" class="legend">server RSS, highest per interval (MB, left)</text>`,
    `<line x1="${LEFT + 305}" x2="${LEFT + 329}" y1="${legendY}" y2="${legendY}" stroke="${RPS_COLOR}" stroke-width="2"/>`,
    `<text x="${LEFT + 335}" y="${legendY + 4}" class="legend">requests per second (right)</text>`,
    `<line x1="${LEFT + 505}" x2="${LEFT + 529}" y1="${legendY}" y2="${legendY}" stroke="#000" stroke-width="1" stroke-dasharray="5,4"/>`,
    `<text x="${LEFT + 535}" y="${legendY + 4}" class="legend">RSS trend after warm-up</text>`,
    `<circle cx="${LEFT + 682}" cy="${legendY}" r="4" fill="${ERROR_COLOR}"/>`,
    `<text x="${LEFT + 690}" y="${legendY + 4}" class="legend">errors</text>`,
    '</svg>',
    '',
  ].join('\n');
}
