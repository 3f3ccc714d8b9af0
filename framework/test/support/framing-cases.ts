import fc from 'fast-check';

/**
 * Generated HTTP/1.1 request streams for the differential framing test: a request whose head and body carry
 * the tricks request smuggling is made of (duplicate and conflicting lengths, every Transfer-Encoding
 * spelling, chunk-size tricks, obs-fold, bare LF, header name and value oddities), then clean requests
 * behind it on the same connection. Every request line names the case (`/c/<id>/...`), so what a server
 * dispatched is told apart per case.
 */

/** One generated case, before its id is known. */
export interface FramingCase {
  /** Builds the bytes sent for the case, its paths carrying `id`. */
  bytes(id: number): Buffer;
  /**
   * The same bytes with what cannot move a message boundary made clean: header lines whose only oddity is a
   * character in a value (DEL, a control, NUL, obs-text) or an empty name, a `Connection: close`, `Expect` or
   * `Upgrade` (Node stops reading after them), and spaces and tabs around framing values (RFC 9110 allows
   * them) and bytes 0x80-0xFF at their ends (uWebSockets.js drops them before rest.uws reads the value). Lines that could move a boundary for some parser (a bare CR or LF, no colon, a space in a name,
   * obs-fold) stay as they are.
   */
  sanitized(id: number): Buffer;
  /** The odd request's method. */
  method: string;
  /** The odd request's framing header lines, as sent. */
  framing: readonly string[];
  /** A short description for failure reports. */
  label: string;
}

/** Lines of `otherLine` that cannot move a message boundary, and what they become in `sanitized`. */
const CLEANED: Record<string, string> = {
  'X-Nul: a\0b': 'X-Nul: ab',
  'X-Ctl: a\x01b': 'X-Ctl: ab',
  'X-Del: a\x7fb': 'X-Del: ab',
  'X-Latin: caf\xe9': 'X-Latin: cafe',
  ': no name': 'X-No-Name: no name',
  'Connection: close': 'X-Connection: close',
  'Expect: 100-continue': 'X-Expect: 100-continue',
  'Upgrade: h2c': 'X-Upgrade: h2c',
};

const CRLF = '\r\n';

// Half the values are the plain, right ones: cases that pass let the pipelined requests behind them be read.
const lengthValue = (n: number): fc.Arbitrary<string> =>
  fc.oneof({ weight: 1, arbitrary: fc.constant(String(n)) }, { weight: 1, arbitrary: oddLength(n) });

const oddLength = (n: number): fc.Arbitrary<string> =>
  fc.constantFrom(
    String(n),
    String(n + 1),
    String(Math.max(0, n - 1)),
    '',
    ' ',
    `0${n}`,
    `00${n}`,
    `+${n}`,
    `-${n}`,
    `${n},${n}`,
    `${n}, ${n}`,
    `${n}, ${n + 1}`,
    `0x${n.toString(16)}`,
    `${n} ${n}`,
    `${n}\t`,
    ` ${n}`,
    `${n}a`,
    '99999999999999999999',
    '1e1',
    `${n}.0`,
    // Bytes 0x80-0xFF at an end: uWebSockets.js drops them before rest.uws reads the value (docs/security.md).
    `${n}\xff`,
    `\x85${n}`,
    `\xa0${n}\xa0`,
    `${n}\xff${n}`,
  );

const encodingValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constant('chunked') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'chunked',
      'Chunked',
      'CHUNKED',
      ' chunked',
      'chunked ',
      '\tchunked',
      'chunked, chunked',
      'gzip, chunked',
      'chunked, gzip',
      'identity',
      'identity, chunked',
      'xchunked',
      'chunk',
      'chunked;q=1',
      '"chunked"',
      '',
      ',chunked',
      'chunked,',
      'gzip',
      'deflate, chunked',
      'chunked\x0b',
      'chunked\xff',
      '\xa0chunked',
      'chu\xffnked',
    ),
  },
);

const lengthName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('Content-Length', 'content-length', 'CONTENT-LENGTH') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Content-Length ',
      'Content-Length\t',
      'Content_Length',
      'Content-Lengthx',
      'X-Content-Length',
    ),
  },
);
const encodingName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('Transfer-Encoding', 'transfer-encoding', 'TRANSFER-ENCODING') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Transfer-Encoding ',
      'Transfer-Encoding\t',
      'Transfer_Encoding',
      'Transfer-Encodings',
      'X-Transfer-Encoding',
    ),
  },
);

/** A header line of the head (without its line ending), possibly odd. */
type Line = { kind: 'line'; text: string } | { kind: 'fold'; first: string; rest: string };

const framingLine = (bodyLength: number): fc.Arbitrary<Line> =>
  fc.oneof(
    fc
      .tuple(lengthName, lengthValue(bodyLength), fc.constantFrom(': ', ':', ':  '))
      .map(([n, v, sep]): Line => ({ kind: 'line', text: `${n}${sep}${v}` })),
    fc
      .tuple(encodingName, encodingValue, fc.constantFrom(': ', ':'))
      .map(([n, v, sep]): Line => ({ kind: 'line', text: `${n}${sep}${v}` })),
    // obs-fold: the value continues on the next line (RFC 9112 forbids it in requests).
    fc
      .tuple(
        fc.constantFrom('Transfer-Encoding', 'Content-Length', 'X-A'),
        fc.constantFrom('chunked', String(bodyLength), 'a'),
      )
      .map(([n, v]): Line => ({ kind: 'fold', first: `${n}:`, rest: ` ${v}` })),
  );

const otherLine: fc.Arbitrary<Line> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Line>({ kind: 'line', text: 'X-Plain: yes' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Line>(
      { kind: 'line', text: 'X-Empty:' },
      { kind: 'line', text: 'X-Nul: a\0b' },
      { kind: 'line', text: 'X-Ctl: a\x01b' },
      { kind: 'line', text: 'X-Del: a\x7fb' },
      { kind: 'line', text: 'No-Colon-Here' },
      { kind: 'line', text: 'Bad Name: x' },
      { kind: 'line', text: ': no name' },
      { kind: 'line', text: 'X-Latin: caf\xe9' },
      { kind: 'line', text: 'Connection: keep-alive' },
      { kind: 'line', text: 'Connection: close' },
      { kind: 'line', text: 'Expect: 100-continue' },
      { kind: 'line', text: 'Upgrade: h2c' },
      { kind: 'line', text: 'X-Cr: a\rb' },
    ),
  },
);

/** A chunked body carrying `data`, with a trick or none. */
const chunkedBody = (data: string): fc.Arbitrary<string> => {
  const size = data.length.toString(16);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(`${size}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        `${size.toUpperCase()}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `00${size}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size};ext=1${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size} ;ext${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size} junk${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size}\n${data}\n0\n\n`,
        `${size}${CRLF}${data}\n0${CRLF}${CRLF}`,
        `${size}${CRLF}${data}XX${CRLF}0${CRLF}${CRLF}`,
        `${size}${CRLF}${data}XX0${CRLF}${CRLF}`,
        `${(data.length + 2).toString(16)}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${Math.max(0, data.length - 1).toString(16)}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size}${CRLF}${data}${CRLF}0${CRLF}X-Trailer: 1${CRLF}${CRLF}`,
        `${size}${CRLF}${data}${CRLF}0${CRLF}`,
        `${size}${CRLF}${data}${CRLF}000${CRLF}${CRLF}`,
        `0x${size}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `-${size}${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `ffffffffffffffffff${CRLF}${data}${CRLF}0${CRLF}${CRLF}`,
        `${size}\r\r\n${data}${CRLF}0${CRLF}${CRLF}`,
        `0${CRLF}${CRLF}`,
      ),
    },
  );
};

const bodyData = fc.stringMatching(/^[a-z0-9]{0,12}$/);

/** The first, odd request of a case: its head, and the bytes after it. */
const oddRequest = fc
  .record({
    method: fc.constantFrom('POST', 'POST', 'PUT', 'GET'),
    version: fc.constantFrom('HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0'),
    data: bodyData,
    chunkedData: bodyData,
    lineEnd: fc.constantFrom(CRLF, CRLF, CRLF, CRLF, CRLF, CRLF, '\n'),
    hostFirst: fc.boolean(),
    bodyStyle: fc.constantFrom('raw', 'chunked', 'none'),
  })
  .chain((r) =>
    fc.record({
      r: fc.constant(r),
      framing: fc.array(framingLine(r.data.length), { minLength: 0, maxLength: 3 }),
      others: fc.array(otherLine, { minLength: 0, maxLength: 2 }),
      chunked: chunkedBody(r.chunkedData),
      // Now and then one header line ends with a bare LF.
      oddLineEnd: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat({ max: 5 }) }),
    }),
  );

/** The clean requests that ride behind: a GET, and a POST with a body. */
const tailKinds = fc.array(fc.constantFrom('get', 'post'), { minLength: 1, maxLength: 2 });

export const framingCase: fc.Arbitrary<FramingCase> = fc
  .record({ odd: oddRequest, tail: tailKinds })
  .map(({ odd, tail }) => {
    const { r, framing, others, chunked, oddLineEnd } = odd;
    const label = JSON.stringify({
      method: r.method,
      version: r.version,
      lineEnd: r.lineEnd,
      framing,
      others,
      body: r.bodyStyle === 'raw' ? r.data : r.bodyStyle === 'chunked' ? chunked : '',
      oddLineEnd,
      tail,
    });
    const build = (id: number, clean: boolean): Buffer => {
      const kind = r.method === 'GET' ? 'get' : 'body';
      const lines: string[] = [];
      if (r.hostFirst) lines.push('Host: x');
      for (const line of framing) {
        if (line.kind === 'fold') lines.push(line.first, line.rest);
        else if (!clean) lines.push(line.text);
        else {
          const colon = line.text.indexOf(':');
          const value = line.text.slice(colon + 1).replace(/^[ \t\x80-\xff]+|[ \t\x80-\xff]+$/g, '');
          lines.push(`${line.text.slice(0, colon)}:${value}`);
        }
      }
      for (const line of others)
        lines.push(line.kind === 'line' ? (clean ? (CLEANED[line.text] ?? line.text) : line.text) : line.first);
      if (!r.hostFirst) lines.push('Host: x');
      let head = `${r.method} /c/${id}/${kind} ${r.version}${r.lineEnd}`;
      lines.forEach((line, i) => (head += line + (oddLineEnd === i ? '\n' : r.lineEnd)));
      head += r.lineEnd;
      const body = r.bodyStyle === 'raw' ? r.data : r.bodyStyle === 'chunked' ? chunked : '';
      let rest = '';
      for (const t of tail) {
        rest +=
          t === 'get'
            ? `GET /c/${id}/tail HTTP/1.1${CRLF}Host: x${CRLF}${CRLF}`
            : `POST /c/${id}/tail-body HTTP/1.1${CRLF}Host: x${CRLF}Content-Length: 4${CRLF}${CRLF}tail`;
      }
      return Buffer.from(head + body + rest, 'latin1');
    };
    return {
      label,
      method: r.method,
      framing: framing.map((line) => (line.kind === 'line' ? line.text : `${line.first}\n${line.rest}`)),
      bytes: (id: number) => build(id, false),
      sanitized: (id: number) => build(id, true),
    };
  });
