/** Medians and spreads over rounds. */

export function median(values: number[]): number {
  const finite = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (finite.length === 0) return NaN;
  const middle = Math.floor(finite.length / 2);
  return finite.length % 2 === 1 ? finite[middle] : (finite[middle - 1] + finite[middle]) / 2;
}

export function minimum(values: number[]): number {
  const finite = values.filter((value) => Number.isFinite(value));
  return finite.length ? Math.min(...finite) : NaN;
}

export function maximum(values: number[]): number {
  const finite = values.filter((value) => Number.isFinite(value));
  return finite.length ? Math.max(...finite) : NaN;
}

/** (max - min) / median, in percent: how much the rounds disagree. */
export function spreadPercent(values: number[]): number {
  const middle = median(values);
  return middle > 0 ? ((maximum(values) - minimum(values)) / middle) * 100 : NaN;
}
