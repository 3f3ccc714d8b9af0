/**
 * Compares a fortunes page with the one the rules expect, the way TechEmpower's verifier does: the HTML is read into
 * a canonical text (tag names without attributes; whitespace-only text dropped; quotes, apostrophes and `>` in text
 * written as entities, numeric references as the character they stand for; <meta>, <link>, <thead>, <tbody> and
 * scripts with their content left out), so any correct template passes, and an unescaped message, a missing or
 * misplaced row, or a wrong encoding does not.
 */
import { EXTRA_FORTUNE_MESSAGE, FORTUNES } from '../contract';

/** The ids in the order the rules' sample page lists them: sorted by message, the extra fortune (0) among them. */
export const EXPECTED_ORDER = [11, 4, 5, 2, 8, 0, 3, 7, 10, 6, 9, 1, 12] as const;

const IGNORED = new Set(['meta', 'link', 'thead', 'tbody']);
const NEWLINE_AFTER_START = new Set(['table', 'html']);
const NEWLINE_AFTER_END = new Set(['tr', 'head']);

/** A character as the canonical text writes it. */
function canonicalCharacter(character: string): string {
  switch (character) {
    case '"':
      return '&quot;';
    case "'":
      return '&apos;';
    case '>':
      return '&gt;';
    case '<':
      return '&lt;';
    case '&':
      return '&amp;';
    default:
      return character;
  }
}

function canonicalText(text: string): string {
  return text.replace(/["'>]/g, canonicalCharacter);
}

const TOKEN =
  /<!([^>]*)>|<\/\s*([a-zA-Z][\w-]*)\s*>|<([a-zA-Z][\w-]*)(?:\s[^>]*)?\/?>|&#(x[0-9a-fA-F]+|\d+);|&([a-zA-Z]+);/g;

export function canonicalPage(html: string): string {
  let out = '';
  let position = 0;
  const text = (until: number) => {
    const data = html.slice(position, until);
    if (data.trim() !== '') out += canonicalText(data);
  };
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(html); match !== null; match = TOKEN.exec(html)) {
    text(match.index);
    position = TOKEN.lastIndex;
    const [, declaration, endTag, startTag, charRef, entity] = match;
    if (declaration !== undefined) out += `<!${declaration.toLowerCase()}>`;
    else if (endTag !== undefined) {
      const name = endTag.toLowerCase();
      if (IGNORED.has(name)) continue;
      out += `</${name}>`;
      if (NEWLINE_AFTER_END.has(name)) out += '\n';
    } else if (startTag !== undefined) {
      const name = startTag.toLowerCase();
      if (name === 'script') {
        // A script's content is not text: skip to its end tag.
        const close = html.toLowerCase().indexOf('</script', position);
        position = close < 0 ? html.length : html.indexOf('>', close) + 1;
        TOKEN.lastIndex = position;
        continue;
      }
      if (IGNORED.has(name)) continue;
      out += `<${name}>`;
      if (NEWLINE_AFTER_START.has(name)) out += '\n';
    } else if (charRef !== undefined) {
      const code = charRef[0] === 'x' ? Number.parseInt(charRef.slice(1), 16) : Number(charRef);
      out += canonicalCharacter(String.fromCodePoint(code));
    } else if (entity !== undefined) {
      // Named entities stay as written (&lt; &amp; &quot; ...), but for the dash the messages hold.
      out += entity === 'mdash' ? '—' : `&${entity};`;
    }
  }
  text(html.length);
  return out;
}

/** The canonical text of the page the rules expect. */
export function expectedPage(): string {
  const messages = new Map<number, string>([
    ...FORTUNES.map((f) => [f.id, f.message] as const),
    [0, EXTRA_FORTUNE_MESSAGE],
  ]);
  const escapeAll = (message: string) => message.replace(/[&<>"']/g, canonicalCharacter);
  const rows = EXPECTED_ORDER.map((id) => `<tr><td>${id}</td><td>${escapeAll(messages.get(id)!)}</td></tr>\n`).join('');
  return `<!doctype html><html>\n<head><title>Fortunes</title></head>\n<body><table>\n<tr><th>id</th><th>message</th></tr>\n${rows}</table></body></html>`;
}

/** undefined when the page is right; otherwise the first line that differs, expected against received. */
export function fortunesPageProblem(html: string): string | undefined {
  const expected = expectedPage().split('\n');
  const received = canonicalPage(html).split('\n');
  for (let line = 0; line < Math.max(expected.length, received.length); line++) {
    if (expected[line] !== received[line])
      return `line ${line + 1} of the page (read canonically): expected ${JSON.stringify(expected[line] ?? '(end)')}, got ${JSON.stringify(received[line] ?? '(end)')}`;
  }
  return undefined;
}
