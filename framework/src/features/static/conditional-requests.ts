import type { Stats } from 'node:fs';
import type { HttpServerRequest } from '../../plugin';

/** Validators of one file version: what conditional requests compare against. */
export interface FileValidators {
  /** Strong entity tag from modification time and size (nginx style), quoted. */
  etag: string;
  /** Modification time, whole seconds (HTTP dates have no finer resolution). */
  modifiedSeconds: number;
  lastModified: string;
}

/** The validators of a file; a precompressed variant's entity tag names its coding too (`"…-br"`). */
export function validatorsOf(stats: Stats, coding?: string): FileValidators {
  const ms = Math.floor(stats.mtimeMs);
  return {
    etag: `"${ms.toString(16)}-${stats.size.toString(16)}${coding === undefined ? '' : `-${coding}`}"`,
    modifiedSeconds: Math.floor(ms / 1000),
    lastModified: new Date(ms).toUTCString(),
  };
}

/** The outcome of a request's preconditions (RFC 9110 section 13.2.2 order). */
export type PreconditionOutcome = 'send' | 'not-modified' | 'failed';

/** Evaluates If-Match, If-Unmodified-Since, If-None-Match and If-Modified-Since, in the RFC's order. */
export function evaluatePreconditions(request: HttpServerRequest, v: FileValidators): PreconditionOutcome {
  const method = request.method();
  const ifMatch = request.getHeader('if-match');
  if (ifMatch !== undefined) {
    if (!matchesAny(ifMatch, v.etag, true)) return 'failed';
  } else {
    const since = parseHttpDate(request.getHeader('if-unmodified-since'));
    if (since !== undefined && v.modifiedSeconds > since) return 'failed';
  }
  const ifNoneMatch = request.getHeader('if-none-match');
  if (ifNoneMatch !== undefined) {
    if (matchesAny(ifNoneMatch, v.etag, false))
      return method === 'GET' || method === 'HEAD' ? 'not-modified' : 'failed';
  } else if (method === 'GET' || method === 'HEAD') {
    const since = parseHttpDate(request.getHeader('if-modified-since'));
    if (since !== undefined && v.modifiedSeconds <= since) return 'not-modified';
  }
  return 'send';
}

/** If-Range: the Range applies only when the validator still names this version (strong comparison). */
export function ifRangeHolds(request: HttpServerRequest, v: FileValidators): boolean {
  const ifRange = request.getHeader('if-range');
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === v.etag;
  const date = parseHttpDate(value);
  return date !== undefined && date === v.modifiedSeconds;
}

/** A comma-separated list of entity tags (or `*`) contains ours; weak comparison ignores `W/`. */
function matchesAny(header: string, etag: string, strong: boolean): boolean {
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  for (const raw of trimmed.split(',')) {
    const tag = raw.trim();
    if (strong) {
      if (tag === etag) return true;
    } else if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

/** Seconds since the epoch of an HTTP date, undefined when absent or not a date. */
function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
