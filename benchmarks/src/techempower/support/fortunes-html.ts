/**
 * The fortunes page: the rows plus the request's extra fortune, sorted by message, in the minimal template the rules
 * give, every message HTML-escaped (one message holds a <script> tag, another Japanese text: the page is UTF-8).
 */
import { EXTRA_FORTUNE_MESSAGE, type Fortune } from '../contract';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const UNSAFE = /[&<>"']/g;
const UNSAFE_ONE = /[&<>"']/;

export function escapeHtml(text: string): string {
  return UNSAFE_ONE.test(text) ? text.replace(UNSAFE, (character) => ESCAPES[character]!) : text;
}

/** Sorted by message in UTF-16 code unit order, as JavaScript compares strings. */
export function byMessage(a: Fortune, b: Fortune): number {
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}

/** Adds the extra fortune to the rows read (a new list of its own size), sorts, and renders the page. */
export function renderFortunes(rows: readonly Fortune[]): string {
  const fortunes = [...rows, { id: 0, message: EXTRA_FORTUNE_MESSAGE }];
  fortunes.sort(byMessage);
  let html =
    '<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>';
  for (const fortune of fortunes) html += `<tr><td>${fortune.id}</td><td>${escapeHtml(fortune.message)}</td></tr>`;
  return `${html}</table></body></html>`;
}

export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export const JSON_CONTENT_TYPE = 'application/json';
export const TEXT_CONTENT_TYPE = 'text/plain';
