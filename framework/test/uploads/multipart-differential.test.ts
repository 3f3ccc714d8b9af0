import test from 'ava';
import Busboy from '@fastify/busboy';
import fc from 'fast-check';
import { MultipartParser } from '../../src/features/uploads/multipart-parser';
import { parsePartHeaders } from '../../src/features/uploads/part-headers';

/**
 * rest.uws parses multipart/form-data with its own small streaming parser (docs/architecture.md says why);
 * @fastify/busboy, the parser Fastify and undici use, is the oracle: over random bodies cut into random
 * chunks, both must read the same parts, byte for byte.
 */

interface Part {
  name: string;
  fileName: string | undefined;
  /** Files as bytes; fields as text (busboy decodes them as UTF-8, as the upload consumer does). */
  content: string;
}

const BOUNDARY = 'rUwS-differential-Bnd';

function chunked(body: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, body.length]) {
    out.push(body.subarray(from, c));
    from = c;
  }
  return out;
}

function parseOurs(chunks: Buffer[]): Part[] {
  const parts: Part[] = [];
  let current: { name: string; fileName: string | undefined; data: Buffer[] } | null = null;
  const parser = new MultipartParser(BOUNDARY, {
    partBegin(block) {
      const info = parsePartHeaders(block);
      current = { name: info.fieldName, fileName: info.fileName, data: [] };
    },
    partData: (d) => current!.data.push(Buffer.from(d)),
    partEnd() {
      const data = Buffer.concat(current!.data);
      parts.push({
        name: current!.name,
        fileName: current!.fileName,
        content: current!.fileName === undefined ? data.toString('utf8') : data.toString('hex'),
      });
      current = null;
    },
  });
  for (const c of chunks) parser.write(c);
  parser.end();
  return parts;
}

function parseBusboy(chunks: Buffer[]): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Array<Part | Promise<Part>> = [];
    const bb = new Busboy({
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      // A part is a file when it names one, as in rest.uws (busboy also counts octet-stream parts as files).
      isPartAFile: (_field, _type, fileName) => fileName !== undefined,
      limits: { fieldNameSize: 1 << 16, fieldSize: 1 << 24, fields: 1e6, files: 1e6, parts: 1e6 },
    });
    bb.on('field', (name: string, value: string) => parts.push({ name, fileName: undefined, content: value }));
    bb.on('file', (name: string, stream: NodeJS.ReadableStream, fileName: string) => {
      const data: Buffer[] = [];
      const read = new Promise<Part>((done, fail) => {
        stream.on('error', fail);
        stream.on('data', (d: Buffer) => data.push(d));
        stream.on('end', () => done({ name, fileName, content: Buffer.concat(data).toString('hex') }));
      });
      // A file's own error may come without busboy's: the form is refused either way.
      read.catch(reject);
      parts.push(read);
    });
    bb.on('finish', () => Promise.all(parts).then(resolve, reject));

    bb.on('error', reject);
    for (const c of chunks) bb.write(c);
    bb.end();
  });
}

/** Text a browser may send as a field name or a file name (no quotes, backslashes or line breaks). */
const nameText = fc.stringMatching(/^[A-Za-z0-9 ._\-éüßå€😀]{1,24}$/u).filter((s) => s.trim() === s && s.length > 0);
/** Content that tries to look like the boundary, line breaks, and anything else. */
const contentBytes = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
  fc
    .array(
      fc.constantFrom(
        '\r\n',
        `--${BOUNDARY}`,
        `\r\n--${BOUNDARY.slice(0, 9)}`,
        '\r',
        '-',
        'x',
        `\r\n--${BOUNDARY}-x`,
        'é',
      ),
      { maxLength: 24 },
    )
    .map((a) => Buffer.from(a.join(''))),
);
const part = fc.record({
  name: nameText,
  fileName: fc.option(
    fc.oneof(
      nameText,
      nameText.map((n) => `C:\\fakepath\\${n}`),
      nameText.map((n) => `dir/sub/${n}`),
    ),
    { nil: undefined },
  ),
  contentType: fc.option(
    fc.constantFrom('text/plain', 'text/plain; charset=utf-8', 'application/octet-stream', 'image/png'),
    { nil: undefined },
  ),
  content: contentBytes,
});

function body(
  parts: Array<{ name: string; fileName: string | undefined; contentType: string | undefined; content: Buffer }>,
  preamble: string,
  epilogue: string,
): Buffer {
  const out: Buffer[] = [Buffer.from(preamble)];
  for (const p of parts) {
    const disposition = `Content-Disposition: form-data; name="${p.name}"${p.fileName === undefined ? '' : `; filename="${p.fileName}"`}`;
    out.push(
      Buffer.from(
        `--${BOUNDARY}\r\n${disposition}\r\n${p.contentType === undefined ? '' : `Content-Type: ${p.contentType}\r\n`}\r\n`,
      ),
      p.content,
      Buffer.from('\r\n'),
    );
  }
  out.push(Buffer.from(`--${BOUNDARY}--\r\n${epilogue}`));
  return Buffer.concat(out);
}

/** A sender never puts a delimiter line inside a part's content (RFC 2046 5.1.1): such a body is malformed. */
const DELIMITER = Buffer.from(`\r\n--${BOUNDARY}`);
const wellFormed = part.filter((p) => !Buffer.concat([Buffer.from('\r\n'), p.content]).includes(DELIMITER));

async function outcome<T>(run: () => T | Promise<T>): Promise<T | 'refused'> {
  try {
    return await run();
  } catch {
    return 'refused';
  }
}

test('rest.uws and @fastify/busboy read the same parts from random bodies cut into random chunks', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(wellFormed, { maxLength: 6 }),
      fc.constantFrom('', 'a preamble\r\n', '\r\n'),
      fc.constantFrom('', 'an epilogue', '\r\n\r\n'),
      fc.array(fc.nat(), { maxLength: 12 }),
      async (parts, preamble, epilogue, cuts) => {
        // Fields are compared as text: keep their bytes valid UTF-8, as a browser sends them.
        const sent = parts.map((p) =>
          p.fileName === undefined ? { ...p, content: Buffer.from(p.content.toString('utf8')) } : p,
        );
        const chunks = chunked(body(sent, preamble, epilogue), cuts);
        const ours = parseOurs(chunks);
        const theirs = await parseBusboy(chunks);
        t.deepEqual(ours, theirs);
      },
    ),
    { seed: 20261125, numRuns: 600 },
  );
});

test('on any body, delimiter look-alikes in contents and cut-off bodies included, rest.uws is never more lenient than busboy: what busboy refuses, rest.uws refuses', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(part, { maxLength: 5 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.boolean(),
      async (parts, cuts, truncate) => {
        const whole = body(parts, '', '');
        const sent = truncate ? whole.subarray(0, Math.floor(whole.length / 2)) : whole;
        const chunks = chunked(sent, cuts);
        const ours = await outcome(() => parseOurs(chunks));
        const theirs = await outcome(() => parseBusboy(chunks));
        // Where both read a malformed body, they may cut it differently: no sender makes such a body.
        if (theirs === 'refused') t.is(ours, 'refused', 'busboy refused a body rest.uws read');
      },
    ),
    { seed: 20261125, numRuns: 600 },
  );
});

test('what one parser refuses as malformed, the other does not read as a complete form', async (t) => {
  // A body cut before its closing boundary: rest.uws refuses it (400); busboy reports an error too.
  const whole = body(
    [{ name: 'a', fileName: undefined, contentType: undefined, content: Buffer.from('value') }],
    '',
    '',
  );
  const cut = whole.subarray(0, whole.length - 10);
  t.throws(() => parseOurs([cut]), { message: /ended before the closing boundary/ });
  await t.throwsAsync(parseBusboy([cut]));
});
