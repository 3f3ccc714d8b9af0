/** Uploads: multipart/form-data and `@FileBody` bodies streamed to the uploads folder, `ctx.fileUploads()`, and the plugin that streams them. */
export { uploadsPlugin, checkGlobalBodyOptions } from './uploads-plugin';
export { FileUpload } from '../../plugin';
export { DEFAULT_UPLOADS_DIRECTORY } from './upload-options';
export { FileBody, type FileBodyOptions, type FileBodyAdmission } from './file-body';
