/** Number formatting shared by the console table, the Markdown report and the chart. */

export function formatRps(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

export function formatMs(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

export function formatPercent(value: number | undefined, digits = 0): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${(value * 100).toFixed(digits)}%`;
}

export function formatMB(value: number): string {
  return Number.isFinite(value) ? value.toFixed(0) : '—';
}

export function formatSpread(value: number): string {
  return Number.isFinite(value) ? `±${(value / 2).toFixed(1)}%` : '—';
}
