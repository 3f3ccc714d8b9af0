import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BODY_OPTIONS, errors, type SettingsView } from '../../plugin';

/** Upload settings with every default applied. */
export interface UploadOptions {
  uploadsDirectory: string;
  deleteUploadedFilesOnEnd: boolean;
  maxFileSize: number;
  maxFiles: number;
  maxFields: number;
  maxFieldSize: number;
}

type Given = Partial<UploadOptions> & { maxBodySize?: number };

/** The default uploads folder: private to the user, in the system's temporary folder. */
export const DEFAULT_UPLOADS_DIRECTORY = path.join(os.tmpdir(), 'rest.uws-uploads');

/**
 * An app's upload settings: its own `bodyHandler` options over the global `RestRouter.setBodyHandler`
 * ones, checked, and with the uploads folder created. Throws RegistrationError for bad values.
 */
export function resolveUploadOptions(settings: SettingsView): UploadOptions {
  const given: Given = {
    ...(settings.global.extensions.get(BODY_OPTIONS) as Given | undefined),
    ...(settings.local.extensions.get(BODY_OPTIONS) as Given | undefined),
  };
  const options: UploadOptions = {
    uploadsDirectory: path.resolve(given.uploadsDirectory ?? DEFAULT_UPLOADS_DIRECTORY),
    deleteUploadedFilesOnEnd: given.deleteUploadedFilesOnEnd ?? true,
    maxFileSize: count(given.maxFileSize, Infinity, 'maxFileSize'),
    maxFiles: count(given.maxFiles, 100, 'maxFiles'),
    maxFields: count(given.maxFields, 1000, 'maxFields'),
    maxFieldSize: count(given.maxFieldSize, 1024 * 1024, 'maxFieldSize'),
  };
  if (
    given.uploadsDirectory !== undefined &&
    (typeof given.uploadsDirectory !== 'string' || given.uploadsDirectory.length === 0)
  ) {
    throw errors.RU_ERR_UPLOADS_DIRECTORY('bodyHandler: uploadsDirectory must be a folder path');
  }
  if (typeof options.deleteUploadedFilesOnEnd !== 'boolean')
    throw errors.RU_ERR_BODY_OPTIONS('bodyHandler: deleteUploadedFilesOnEnd must be true or false');
  // A folder the app named must work at start-up; the default one is made on the first upload (apps without uploads leave no trace).
  if (given.uploadsDirectory !== undefined) ensureFolder(options.uploadsDirectory);
  return options;
}

function count(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw errors.RU_ERR_BODY_OPTIONS(`bodyHandler: ${name} must be a whole number >= 0`);
  return value;
}

/** Creates the uploads folder (owner-only when new) and checks it can be written, so a wrong path fails at start-up, not on the first upload. */
function ensureFolder(dir: string): void {
  let problem: string | undefined;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (fs.statSync(dir).isDirectory()) fs.accessSync(dir, fs.constants.W_OK);
    else problem = 'not a folder';
  } catch (err) {
    problem = (err as Error).message;
  }
  if (problem !== undefined)
    throw errors.RU_ERR_UPLOADS_DIRECTORY(`bodyHandler: the uploads folder ${dir} cannot be used: ${problem}`);
}
