import { registerRouteExtension } from '../../pipeline/extensions';
import { RegistrationError } from '../../errors/http-errors';
import { registryChanged } from '../../io/generation';
import type { Provided } from '../../io/registry';
import { RestBuilder } from '../../builder/rest-builder';
import { RestRouter } from '../../builder/rest-router';
import { globalSettings } from '../../settings/settings';
import { bindAppRoot, FileResponseWriter, type FileResponseWriterOptions } from './file-response-writer';
import { FileRoot } from './safe-path';
import { staticFolder } from './static-folder';

/** Key of the app's (or the global) static files root in the settings extensions. */
export const STATIC_ROOT = Symbol('rest.uws:static-root');

declare module '../../builder/rest-builder' {
  interface RestBuilder {
    /**
     * `staticFiles(root)`: the folder `@ResponseWriter(FileResponseWriter)` routes of this app serve from.
     * `staticFiles('/static', dir, options?)`: serves every file of `dir` under the URL prefix `/static`.
     */
    staticFiles(root: string): this;
    /** `staticFiles('/static', dir, options?)`: serves every file of `dir` under the URL prefix. */
    staticFiles(urlPrefix: string, directory: string, options?: Omit<FileResponseWriterOptions, 'root'>): this;
  }
}

declare module '../../builder/rest-router' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace RestRouter {
    /** The folder `@ResponseWriter(FileResponseWriter)` routes serve from, for every app without its own `staticFiles(root)`. */
    function staticFiles(root: string): void;
  }
}

RestBuilder.prototype.staticFiles = function staticFiles(this: RestBuilder, rootOrPrefix: string, directory?: string, options?: Omit<FileResponseWriterOptions, 'root'>) {
  if (directory === undefined) {
    this.settings.extensions.set(STATIC_ROOT, new FileRoot(rootOrPrefix, 'RestBuilder.staticFiles'));
    return this;
  }
  return this.register(staticFolder(rootOrPrefix, directory, options));
} as RestBuilder['staticFiles'];

RestRouter.staticFiles = function staticFiles(root: string): void {
  globalSettings.extensions.set(STATIC_ROOT, new FileRoot(root, 'RestRouter.staticFiles'));
  registryChanged();
};

/** Is this writer a FileResponseWriter (or a subclass, e.g. from `FileResponseWriter.under`)? */
function isFileWriter(writer: Function | undefined): writer is typeof FileResponseWriter {
  return writer === FileResponseWriter || (typeof writer === 'function' && writer.prototype instanceof FileResponseWriter);
}

// At registration, a FileResponseWriter route without a root of its own gets the app's; without either, it fails to register.
registerRouteExtension({
  name: 'static-files',
  order: 900,
  compile(scope) {
    const writerClass = scope.methodMeta.writer ?? scope.classMeta.writer;
    if (!isFileWriter(writerClass)) return undefined;
    const writer = scope.components.get(writerClass as Provided<FileResponseWriter>);
    if (writer.hasOwnRoot()) return undefined;
    const root = scope.settings.extension<FileRoot>(STATIC_ROOT);
    if (root === undefined) {
      throw new RegistrationError(
        `${scope.definition.label}(): @ResponseWriter(FileResponseWriter) needs a root folder: RestBuilder.staticFiles(root), RestRouter.staticFiles(root) or FileResponseWriter.under(root)`,
        'RU_ERR_STATIC_ROOT',
      );
    }
    // Handed over per request, not stored in the writer: writers with @Context fields or @NoCache are made per request.
    return { before: (ctx) => void bindAppRoot(ctx.request, root) };
  },
});
