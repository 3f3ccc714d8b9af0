import { errors, type Provided, type RestPlugin } from '../../plugin';
import { bindAppRoot, FileResponseWriter } from './file-response-writer';
import type { FileRoot } from './safe-path';

/** Key of the app's (or the global) static files root in the settings extensions. */
export const STATIC_ROOT = Symbol('rest.uws:static-root');

/** Is this writer a FileResponseWriter (or a subclass, e.g. from `FileResponseWriter.under`)? */
function isFileWriter(writer: Function | undefined): writer is typeof FileResponseWriter {
  return (
    writer === FileResponseWriter || (typeof writer === 'function' && writer.prototype instanceof FileResponseWriter)
  );
}

/**
 * Static files: at registration, a `@ResponseWriter(FileResponseWriter)` route without a root of its own
 * gets the app's (`staticFiles(root)`) through an `onRequest` hook; without either, it fails to register.
 */
export const staticFilesPlugin: RestPlugin = {
  name: 'static-files',
  setup(app) {
    app.route((route) => {
      if (route.kind !== 'http') return undefined;
      const writerClass = route.methodMeta.writer ?? route.classMeta.writer;
      if (!isFileWriter(writerClass)) return undefined;
      const writer = route.components.get(writerClass as Provided<FileResponseWriter>);
      if (writer.hasOwnRoot()) return undefined;
      const root = route.settings.extension<FileRoot>(STATIC_ROOT);
      if (root === undefined) {
        throw errors.RU_ERR_STATIC_ROOT(
          `${route.definition.label}(): @ResponseWriter(FileResponseWriter) needs a root folder: RestBuilder.staticFiles(root), RestRouter.staticFiles(root) or FileResponseWriter.under(root)`,
        );
      }
      // Handed over per request, not stored in the writer: writers with @Context fields or @NoCache are made per request.
      return { onRequest: (ctx) => void bindAppRoot(ctx.request, root) };
    });
  },
};
