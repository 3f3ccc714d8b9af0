/** The pages of docs/ and their fenced code blocks, as the site's checks read them. */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root and its docs/ folder, from the compiled file (site/dist/src/). */
export const REPOSITORY = path.resolve(__dirname, '..', '..', '..');
export const DOCS = path.join(REPOSITORY, 'docs');

/** Every markdown page of docs/, relative to it (VitePress's folder and the generated API reference left out). */
export function docPages(dir = DOCS): string[] {
  const pages: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'public' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) pages.push(...docPages(full));
    else if (entry.name.endsWith('.md')) pages.push(path.relative(DOCS, full).split(path.sep).join('/'));
  }
  return pages.sort();
}

export interface CodeBlock {
  /** The page, relative to docs/. */
  page: string;
  /** The line of the opening fence, from 1. */
  line: number;
  /** The language of the fence's info string ('' when none). */
  lang: string;
  /** The other words of the info string (`fragment`, `file=src/app.ts`, `excerpt`...). */
  attributes: string[];
  code: string;
}

/** The fenced code blocks of a page (``` or ~~~, indented or not, as CommonMark reads them). */
export function codeBlocks(page: string, markdown = fs.readFileSync(path.join(DOCS, page), 'utf8')): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]);
    if (!open) continue;
    const indent = open[1].length;
    const fence = open[2];
    const [lang = '', ...attributes] = open[3].trim().split(/\s+/).filter(Boolean);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).exec(lines[j]);
      if (close) break;
      body.push(lines[j].slice(Math.min(indent, lines[j].length - lines[j].trimStart().length)));
    }
    blocks.push({ page, line: i + 1, lang: lang.toLowerCase(), attributes, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** The value of an attribute such as `file=src/app.ts`. */
export function attribute(block: CodeBlock, name: string): string | undefined {
  const found = block.attributes.find((a) => a.startsWith(`${name}=`));
  return found?.slice(name.length + 1);
}
