import { malformed } from './multipart-parser';

/** What a part's headers say: its field name and, for a file, the client's file name. */
export interface PartInfo {
  fieldName: string;
  /** The client's file name (last path component only); undefined for a plain field. */
  fileName: string | undefined;
  contentType: string | undefined;
  charset: string | undefined;
}

/**
 * Reads a part's header block (UTF-8, as browsers send it). Content-Disposition must be `form-data`
 * with a `name`; `filename*` (RFC 5987) wins over `filename`.
 */
export function parsePartHeaders(block: Buffer): PartInfo {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.toString('utf8').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (disposition === undefined) throw malformed('a part has no Content-Disposition header');
  const { type, params } = parseParameters(disposition);
  if (type.toLowerCase() !== 'form-data') throw malformed(`a part's Content-Disposition is "${type}", not form-data`);
  const fieldName = params.get('name');
  if (fieldName === undefined) throw malformed('a part has no field name');
  const extended = params.get('filename*');
  const plain = params.get('filename');
  const rawFileName = extended !== undefined ? (decodeExtended(extended) ?? plain) : plain;
  const charset = contentType !== undefined ? parseParameters(contentType).params.get('charset') : undefined;
  return { fieldName, fileName: rawFileName === undefined ? undefined : baseName(rawFileName), contentType, charset };
}

/** `type; a=1; b="two; three"` -> type and parameters (names lower-cased). */
function parseParameters(value: string): { type: string; params: Map<string, string> } {
  const params = new Map<string, string>();
  let i = value.indexOf(';');
  const type = (i < 0 ? value : value.slice(0, i)).trim();
  while (i >= 0 && i < value.length) {
    i++; // past ';'
    const eq = value.indexOf('=', i);
    if (eq < 0) break;
    const name = value.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (value[j] === ' ' || value[j] === '\t') j++;
    let v: string;
    if (value[j] === '"') {
      // Quoted string: browsers escape a quote as %22 and send backslashes as they are, so only \" is an escape.
      let out = '';
      j++;
      while (j < value.length && value[j] !== '"') {
        if (value[j] === '\\' && value[j + 1] === '"') j++;
        out += value[j];
        j++;
      }
      v = out;
      i = value.indexOf(';', j);
    } else {
      const semi = value.indexOf(';', j);
      v = (semi < 0 ? value.slice(j) : value.slice(j, semi)).trim();
      i = semi;
    }
    if (name.length > 0 && !params.has(name)) params.set(name, v);
  }
  return { type, params };
}

/** RFC 5987 `UTF-8''na%C3%AFve.txt`; undefined when it cannot be decoded. */
function decodeExtended(value: string): string | undefined {
  const m = /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(value);
  if (m === null) return undefined;
  const charset = m[1]!.toLowerCase();
  try {
    if (charset === 'utf-8' || charset === '') return decodeURIComponent(m[2]!);
    if (charset === 'iso-8859-1') return unescape(m[2]!);
  } catch {
    return undefined;
  }
  return undefined;
}

/** The client's file name is metadata only: keep its last component (old browsers send a full path). */
function baseName(name: string): string {
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  const last = (cut >= 0 ? name.slice(cut + 1) : name).replace(/[\0-\x1f\x7f]/g, '');
  // "." and ".." name no file: such a part counts as a file input left empty, as busboy reads it.
  return last === '.' || last === '..' ? '' : last;
}
