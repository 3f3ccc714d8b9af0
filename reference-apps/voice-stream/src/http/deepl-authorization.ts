/**
 * Reads `Authorization: DeepL-Auth-Key <key>`, the header real clients of this API send. Returns the key,
 * or a message saying what is wrong (answered with 401).
 */
export function readAuthKey(header: string | undefined): { key: string } | { problem: string } {
  if (header === undefined || header.trim() === '') {
    return { problem: 'Missing Authorization header; send "Authorization: DeepL-Auth-Key <key>"' };
  }
  const match = /^\s*DeepL-Auth-Key\s+(\S+)\s*$/i.exec(header);
  if (!match) return { problem: 'The Authorization header must be "DeepL-Auth-Key <key>"' };
  return { key: match[1] };
}
