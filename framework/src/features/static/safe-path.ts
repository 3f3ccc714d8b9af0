import * as fs from 'node:fs';
import * as path from 'node:path';
import { ForbiddenException, NotFoundException, errors } from '../../plugin';

/** What to do with names starting with a dot (`.env`, `.git/`). */
export type DotFiles = 'ignore' | 'deny' | 'allow';

/**
 * A served folder, resolved once: its real path (symlinks resolved) is what every requested file
 * must stay inside.
 */
export class FileRoot {
  readonly realPath: string;
  private readonly prefix: string;

  constructor(
    readonly configured: string,
    where: string,
  ) {
    if (typeof configured !== 'string' || configured.length === 0) {
      throw errors.RU_ERR_STATIC_ROOT(`${where}: the static files root must be a folder path`);
    }
    let real: string;
    try {
      real = fs.realpathSync(path.resolve(configured));
    } catch (err) {
      throw errors.RU_ERR_STATIC_ROOT(
        `${where}: the static files root ${configured} does not exist (${(err as NodeJS.ErrnoException).code ?? err})`,
      );
    }
    if (!fs.statSync(real).isDirectory())
      throw errors.RU_ERR_STATIC_ROOT(`${where}: the static files root ${configured} is not a folder`);
    this.realPath = real;
    this.prefix = real.endsWith(path.sep) ? real : real + path.sep;
  }

  /** Whether an absolute, symlink-free path is the root or inside it. */
  contains(realPath: string): boolean {
    return realPath === this.realPath || realPath.startsWith(this.prefix);
  }
}

/**
 * Checks a relative path as a method returned it (or as a URL gave it, decoded once) and joins it
 * to the root. Never decodes: `%2e%2e` stays a literal name. Refused with 403: NUL, backslashes,
 * absolute paths and drive letters, any `..` segment; dot names per `dotFiles` (404 when ignored).
 */
export function joinUnderRoot(root: FileRoot, relative: string, dotFiles: DotFiles): string {
  if (relative.indexOf('\0') >= 0) throw forbidden('it contains a NUL byte');
  if (relative.indexOf('\\') >= 0) throw forbidden('it contains a backslash');
  if (relative.startsWith('/') || /^[A-Za-z]:/.test(relative)) throw forbidden('it is absolute');
  const segments: string[] = [];
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw forbidden('it climbs out with ".."');
    if (segment.charCodeAt(0) === 46 /* . */ && dotFiles !== 'allow') {
      if (dotFiles === 'deny') throw forbidden('it names a hidden file');
      throw notFound();
    }
    segments.push(segment);
  }
  const joined = path.join(root.realPath, ...segments);
  // Defence in depth: the join of checked segments cannot leave the root, but make sure.
  if (!root.contains(joined)) throw forbidden('it leaves the root');
  return joined;
}

/** Resolves symlinks and checks the target is still inside the root (403 otherwise, 404 when missing). */
export async function realPathUnderRoot(root: FileRoot, joined: string): Promise<string> {
  let real: string;
  try {
    real = await fs.promises.realpath(joined);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') throw notFound();
    if (code === 'EACCES' || code === 'EPERM') throw forbidden('it cannot be read');
    throw err;
  }
  if (!root.contains(real)) throw forbidden('a symbolic link leads out of the root');
  return real;
}

function forbidden(why: string): ForbiddenException {
  return errors.RU_ERR_PATH_FORBIDDEN(`The requested file path is not allowed: ${why}`);
}

export function notFound(): NotFoundException {
  return errors.RU_ERR_FILE_NOT_FOUND('File not found');
}
