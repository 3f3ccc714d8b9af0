/**
 * Content-coding negotiation (RFC 9110 12.5.3): which of the codings a server can send (`br`, `gzip`...)
 * an `Accept-Encoding` header accepts, best first. Shared by compression and precompressed static files.
 */

/** What a client accepts among a server's codings. */
export interface CodingChoice {
  /** The acceptable codings (never `identity`), best first: by q, then in the server's order. */
  codings: readonly string[];
  /** Whether the unencoded body is acceptable (it is unless `identity;q=0`, or `*;q=0` without an `identity` entry). */
  identity: boolean;
}

const IDENTITY_ONLY: CodingChoice = Object.freeze({ codings: Object.freeze([]) as readonly string[], identity: true });
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Reads `Accept-Encoding` against `available` (lower-case codings in the server's order of preference). No
 * header means identity (a server may pick any coding then, but clients that send none rarely decode one).
 * Entries with a malformed q-value are ignored; coding names compare case-insensitively.
 */
export function chooseCodings(header: string | undefined, available: readonly string[]): CodingChoice {
  if (header === undefined) return IDENTITY_ONLY;
  const q = new Map<string, number>();
  for (const entry of header.split(',')) {
    const semi = entry.indexOf(';');
    const name = (semi < 0 ? entry : entry.slice(0, semi)).trim().toLowerCase();
    if (name.length === 0) continue;
    let weight = 1;
    if (semi >= 0) {
      const param = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(entry.slice(semi + 1));
      if (param === null || !QVALUE.test(param[1]!)) continue;
      weight = Number(param[1]);
    }
    // A coding listed twice keeps its first weight.
    if (!q.has(name)) q.set(name, weight);
  }
  const star = q.get('*');
  const identityQ = q.get('identity') ?? (star === 0 ? 0 : undefined);
  const scored: Array<{ coding: string; weight: number; order: number }> = [];
  available.forEach((coding, order) => {
    const weight = q.get(coding) ?? star ?? 0;
    if (weight > 0) scored.push({ coding, weight, order });
  });
  scored.sort((a, b) => b.weight - a.weight || a.order - b.order);
  // A client that prefers identity outright (identity;q=1, gzip;q=0.5) gets it.
  const codings = scored.filter((s) => identityQ === undefined || s.weight >= identityQ).map((s) => s.coding);
  return { codings, identity: identityQ !== 0 };
}
