import { segmentSpans, type PathPattern, type PatternSegment } from './path-pattern';

/** Could one path segment match both pattern segments? */
function segmentsMayMeet(a: PatternSegment, b: PatternSegment): boolean {
  if (a.kind === 'static' && b.kind === 'static') return a.value === b.value;
  if (a.kind === 'static' && b.kind === 'regex') return b.regex.test(a.value);
  if (b.kind === 'static' && a.kind === 'regex') return a.regex.test(b.value);
  return true;
}

/** Segments before the first one that can take in `/` (all of them when none can). */
function segmentWiseLength(pattern: PathPattern): number {
  if (!pattern.spansSegments) return pattern.segments.length;
  const index = pattern.segments.findIndex(segmentSpans);
  return index < 0 ? pattern.segments.length : index;
}

/**
 * Could some request path match both patterns? Answers true unless their segments tell them apart: a
 * different segment count (neither spanning `/`) or, at the same position, static segments that differ
 * or a static segment the other's regex refuses. Used to decide which routes may leave the JavaScript
 * router, so it may say "maybe" for patterns that never meet, never "no" for patterns that do.
 */
export function mayOverlap(a: PathPattern, b: PathPattern): boolean {
  const spans = a.spansSegments || b.spansSegments;
  if (!spans && a.segments.length !== b.segments.length) return false;
  const common = Math.min(segmentWiseLength(a), segmentWiseLength(b));
  for (let i = 0; i < common; i++) if (!segmentsMayMeet(a.segments[i]!, b.segments[i]!)) return false;
  return true;
}
