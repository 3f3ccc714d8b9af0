/**
 * Links from a page to a file of the repository outside docs/ (a package's README, the CHANGELOG, a source file)
 * work when the markdown is read on disk but have no page on the site. On the site they become the file's path in
 * the repository, as code, so no link leads nowhere. Images (the benchmark charts) are left to Vite, which bundles
 * them.
 */
import * as path from 'node:path';
import type MarkdownIt from 'markdown-it';

const IMAGE = /\.(svg|png|jpe?g|gif|webp)$/i;

export function repositoryLinks(md: MarkdownIt, docsDir: string, repository: string): void {
  const open = md.renderer.rules.link_open;
  const close = md.renderer.rules.link_close;
  const outside = new WeakSet<object>();
  md.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const href = token.attrGet('href') ?? '';
    const page: string | undefined = env?.realPath ?? env?.path;
    if (page && !/^[a-z][a-z0-9+.-]*:|^#|^\//i.test(href) && !IMAGE.test(href.split('#')[0])) {
      const target = path.resolve(path.dirname(page), href.split('#')[0]);
      if (!target.startsWith(docsDir + path.sep) && target.startsWith(repository + path.sep)) {
        const closeToken = tokens.slice(index).find((t) => t.type === 'link_close');
        if (closeToken) outside.add(closeToken);
        const file = path.relative(repository, target).split(path.sep).join('/');
        return `<span class="repository-file" title="${md.utils.escapeHtml(file)} in the repository">`;
      }
    }
    return open ? open(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };
  md.renderer.rules.link_close = (tokens, index, options, env, self) => {
    if (outside.has(tokens[index])) return '</span>';
    return close ? close(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
  };
}
