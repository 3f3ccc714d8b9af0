import type { PathPattern } from '../../plugin';

const PLAIN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()+,=@]+$/;

/**
 * The uWebSockets.js route pattern that catches a WebSocket path: static segments as they are,
 * plain variables as `:name`, and a trailing `*` from the first segment uWebSockets.js cannot
 * express (regex variables, mixed segments, encoded text). The exact match is then checked in
 * JavaScript against the pattern's own regex.
 */
export function uwsPatternFor(pattern: PathPattern): string {
  const parts: string[] = [];
  for (const segment of pattern.segments) {
    if (segment.kind === 'static' && PLAIN_SEGMENT.test(segment.value)) parts.push(segment.value);
    else if (segment.kind === 'param' && !pattern.spansSegments) parts.push(`:${segment.name}`);
    else {
      parts.push('*');
      break;
    }
  }
  return '/' + parts.join('/');
}
