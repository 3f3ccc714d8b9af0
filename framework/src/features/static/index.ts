/** Static files: the file writer, folder mounts, and the plugin that gives file routes their root. */
export { staticFilesPlugin, STATIC_ROOT } from './static-plugin';
export { FileResponseWriter, type FileResponseWriterOptions } from './file-response-writer';
export { staticFolder } from './static-folder';
export { FileRoot, type DotFiles } from './safe-path';
