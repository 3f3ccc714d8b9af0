/** Renders rows as an aligned plain-text table (console) or a Markdown table (report). */

export type Alignment = 'left' | 'right';

export interface Column<Row> {
  header: string;
  align: Alignment;
  value: (row: Row) => string;
}

export function renderTextTable<Row>(columns: Column<Row>[], rows: Row[]): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) =>
    Math.max(column.header.length, ...cells.map((line) => line[index].length)),
  );
  const pad = (text: string, index: number) =>
    columns[index].align === 'right' ? text.padStart(widths[index]) : text.padEnd(widths[index]);
  const lines = [
    columns.map((column, index) => pad(column.header, index)).join('  '),
    widths.map((width) => '-'.repeat(width)).join('  '),
  ];
  for (const line of cells) lines.push(line.map((text, index) => pad(text, index)).join('  '));
  return lines.join('\n');
}

export function renderMarkdownTable<Row>(columns: Column<Row>[], rows: Row[]): string {
  // biome-ignore lint/suspicious/noShadowRestrictedNames: a local helper; the global escape() is never wanted here
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const lines = [
    `| ${columns.map((column) => escape(column.header)).join(' | ')} |`,
    `| ${columns.map((column) => (column.align === 'right' ? '---:' : '---')).join(' | ')} |`,
  ];
  for (const row of rows) lines.push(`| ${columns.map((column) => escape(column.value(row))).join(' | ')} |`);
  return lines.join('\n');
}
