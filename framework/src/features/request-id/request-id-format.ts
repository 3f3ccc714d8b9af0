/** Longest request id taken from a request by default: a UUID, a W3C trace id or a cloud load balancer's id fit. */
export const DEFAULT_MAX_LENGTH = 128;
/** No option may raise the bound past this: ids are logged and echoed on every response. */
export const MAX_LENGTH_LIMIT = 1024;

// Letters, digits and `-_.:~+/=@`: UUIDs, base64, trace ids (`00-4bf9...-01`), `Root=1-67...` ids. No spaces,
// quotes, commas or semicolons, so an id never splits a header list or a log field.
const ALLOWED = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.:~+/=@') ALLOWED[c.charCodeAt(0)] = 1;

/** Whether `id` is 1 to `maxLength` characters of the allowed set. */
export function isWellFormedRequestId(id: string, maxLength: number): boolean {
  const n = id.length;
  if (n === 0 || n > maxLength) return false;
  for (let i = 0; i < n; i++) {
    const c = id.charCodeAt(i);
    if (c >= 128 || ALLOWED[c] === 0) return false;
  }
  return true;
}
