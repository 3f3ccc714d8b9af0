import { quoteValue } from '../../model/query-argument-error';
import MarkdownIt from 'markdown-it';
import { GraphQLError } from 'graphql';

/**
 * The markdown flavors the CMS accepts (its host framework's parsers), mapped onto markdown-it:
 * `original` (the default) is CommonMark; `gfm` adds tables, strikethrough and autolinks; `gfm-comment`
 * also turns single newlines into `<br>`; `extra` is `gfm` plus typographic replacements.
 */
const FLAVORS: Record<string, () => MarkdownIt> = {
  original: () => new MarkdownIt('commonmark', { html: true }),
  gfm: () => new MarkdownIt('default', { html: true, linkify: true }),
  'gfm-comment': () => new MarkdownIt('default', { html: true, linkify: true, breaks: true }),
  extra: () => new MarkdownIt('default', { html: true, linkify: true, typographer: true }),
};

const parsers = new Map<string, MarkdownIt>();

export function renderMarkdown(text: string, flavor: string | null | undefined, inlineOnly: boolean): string {
  const name = flavor ?? 'original';
  const factory = FLAVORS[name];
  if (!factory)
    throw new GraphQLError(`Invalid markdown flavor ${quoteValue(name)}: use ${Object.keys(FLAVORS).join(', ')}`);
  let parser = parsers.get(name);
  if (!parser) {
    parser = factory();
    parsers.set(name, parser);
  }
  return inlineOnly ? parser.renderInline(text) : parser.render(text);
}
