/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A complete, self-contained page (inline style, no scripts): what customers open from their links. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.5rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#666}
ul{padding-left:1.2rem}code{font-size:.9em}
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** `2030-02-01T10:00:00` as `1 February 2030, 10:00` (the slot's local time: it has no zone). */
export function formatLocalDateTime(localDateTime: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(localDateTime);
  if (!match) return localDateTime;
  const [, year, month, day, hour, minute] = match;
  const monthName = new Date(Date.UTC(2000, Number(month) - 1, 1)).toLocaleString('en-GB', {
    month: 'long',
    timeZone: 'UTC',
  });
  return `${Number(day)} ${monthName} ${year}, ${hour}:${minute}`;
}
