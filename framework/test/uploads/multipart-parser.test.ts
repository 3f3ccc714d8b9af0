import test from 'ava';
import { boundaryOf, MultipartParser } from '../../src/features/uploads/multipart-parser';
import { parsePartHeaders } from '../../src/features/uploads/part-headers';

interface Parsed {
  headers: string;
  content: Buffer;
}

function parse(body: Buffer, boundary: string, splitAt: number[] = []): Parsed[] {
  const parts: Parsed[] = [];
  let current: { headers: string; chunks: Buffer[] } | null = null;
  const parser = new MultipartParser(boundary, {
    partBegin: (h) => (current = { headers: h.toString('utf8'), chunks: [] }),
    partData: (d) => current!.chunks.push(Buffer.from(d)),
    partEnd: () => {
      parts.push({ headers: current!.headers, content: Buffer.concat(current!.chunks) });
      current = null;
    },
  });
  let from = 0;
  for (const at of [...splitAt, body.length]) {
    parser.write(body.subarray(from, at));
    from = at;
  }
  parser.end();
  return parts;
}

const B = 'XyZ-boundary-1234';
const tricky = Buffer.concat([
  Buffer.from('line one\r\n--XyZ-bound not quite\r\n\r'),
  Buffer.from([0, 13, 10, 45, 45, 255]),
]);
const body = Buffer.concat([
  Buffer.from(`preamble to ignore\r\n--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello, wörld\r\n`),
  Buffer.from(
    `--${B}  \t\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  ),
  tricky,
  Buffer.from(`\r\n--${B}\r\n\r\nno headers here\r\n--${B}--\r\nepilogue to ignore`),
]);

test('parses fields, binary content with boundary look-alikes, a part without headers; ignores preamble and epilogue', (t) => {
  const parts = parse(body, B);
  t.is(parts.length, 3);
  t.is(parts[0]!.headers, 'Content-Disposition: form-data; name="title"');
  t.is(parts[0]!.content.toString('utf8'), 'Hello, wörld');
  t.true(parts[1]!.content.equals(tricky));
  t.is(parts[2]!.headers, '');
  t.is(parts[2]!.content.toString(), 'no headers here');
});

test('gives the same parts however the body is split into chunks (every split point, and byte by byte)', (t) => {
  const expected = parse(body, B);
  for (let at = 1; at < body.length; at++) {
    t.deepEqual(parse(body, B, [at]), expected, `split at ${at}`);
  }
  const everyByte = Array.from({ length: body.length - 1 }, (_, i) => i + 1);
  t.deepEqual(parse(body, B, everyByte), expected);
});

test('a body without its closing boundary, a bad line after a boundary, or oversized headers are 400 errors', (t) => {
  const truncated = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue`);
  t.throws(() => parse(truncated, B), { message: /ended before the closing boundary/ });
  const garbage = Buffer.from(`--${B}xx\r\n`);
  t.throws(() => parse(garbage, B), { message: /not followed by a line break/ });
  const huge = Buffer.from(`--${B}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\nv\r\n--${B}--`);
  const err = t.throws(() => parse(huge, B));
  t.is((err as { status?: number }).status, 400);
  t.regex(err!.message, /headers exceed/);
});

test('boundary parameter: plain, quoted, case-insensitive; missing or too long is undefined', (t) => {
  t.is(
    boundaryOf('multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW'),
    '----WebKitFormBoundary7MA4YWxkTrZu0gW',
  );
  t.is(boundaryOf('multipart/form-data; BOUNDARY="a b:c"; charset=utf-8'), 'a b:c');
  t.is(boundaryOf('multipart/form-data'), undefined);
  t.is(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`), undefined);
});

test('part headers: field name, file name (RFC 5987 filename* wins, only the last path component kept), type and charset', (t) => {
  const h = (s: string) => parsePartHeaders(Buffer.from(s));
  t.deepEqual(h('Content-Disposition: form-data; name="title"'), {
    fieldName: 'title',
    fileName: undefined,
    contentType: undefined,
    charset: undefined,
  });
  t.like(
    h(
      'content-disposition: form-data; name="doc"; filename="C:\\Users\\me\\report.pdf"\r\nContent-Type: application/pdf',
    ),
    { fieldName: 'doc', fileName: 'report.pdf', contentType: 'application/pdf' },
  );
  t.like(h('Content-Disposition: form-data; name="f"; filename="../../etc/passwd"'), { fileName: 'passwd' });
  t.like(
    h(`Content-Disposition: form-data; name="f"; filename="plain.txt"; filename*=UTF-8''na%C3%AFve%20%E2%82%AC.txt`),
    { fileName: 'naïve €.txt' },
  );
  t.like(h('Content-Disposition: form-data; name="semi;colon"; filename="a \\"q\\".txt"'), {
    fieldName: 'semi;colon',
    fileName: 'a "q".txt',
  });
  t.like(h('Content-Disposition: form-data; name="t"\r\nContent-Type: text/plain; charset=iso-8859-1'), {
    charset: 'iso-8859-1',
  });
  t.like(h('Content-Disposition: form-data; name="e"; filename=""'), { fileName: '' });
  t.throws(() => h('Content-Type: text/plain'), { message: /no Content-Disposition/ });
  t.throws(() => h('Content-Disposition: attachment; name="x"'), { message: /not form-data/ });
  t.throws(() => h('Content-Disposition: form-data; filename="x"'), { message: /no field name/ });
});
