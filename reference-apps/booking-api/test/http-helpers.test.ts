import test from 'ava';
import { missingKeyMessage, readApiKey } from '../src/http/api-key-credentials';
import { errorResponse } from '../src/http/error-response';
import { requestBaseUrl } from '../src/http/request-base-url';
import { BookingError } from '../src/domain/booking-error';

const headers = (values: Record<string, string>) => (name: string) => values[name];

test('the API key comes from Authorization: Bearer or from Headout-Auth', (t) => {
  t.is(readApiKey(headers({ authorization: 'Bearer pk_abc' })), 'pk_abc');
  t.is(readApiKey(headers({ authorization: 'bearer   pk_abc ' })), 'pk_abc');
  t.is(readApiKey(headers({ 'headout-auth': 'pk_xyz' })), 'pk_xyz');
  t.is(readApiKey(headers({ authorization: 'Bearer pk_abc', 'headout-auth': 'pk_xyz' })), 'pk_abc', 'Authorization first');
  t.is(readApiKey(headers({ authorization: 'Basic dXNlcjpwYXNz' })), undefined);
  t.is(readApiKey(headers({})), undefined);
  t.regex(missingKeyMessage(headers({ authorization: 'Basic x' })), /must use the Bearer scheme/);
  t.regex(missingKeyMessage(headers({})), /Missing API key: send "Authorization: Bearer <api key>" or "Headout-Auth: <api key>"/);
});

test('domain errors keep their status and code; anything else is a 500 without internals', (t) => {
  t.deepEqual(errorResponse(BookingError.missing('variantId')), {
    status: 400,
    body: { status: 400, error: { code: 'E_MISSING_PARAMETER', message: 'Missing required parameter: variantId' } },
  });
  t.is(errorResponse(BookingError.notFound('Booking', '7')).status, 404);
  const logged: unknown[] = [];
  const internal = errorResponse(new TypeError('secret internals at /srv/app.js:12'), (error) => logged.push(error));
  t.is(internal.status, 500);
  t.false(JSON.stringify(internal.body).includes('secret'));
  t.is(logged.length, 1, 'the real cause goes to the log');
});

test('link base: configured URL, else the Host header when it is a plain host', (t) => {
  t.is(requestBaseUrl('https://api.example.com/', 'evil.test', undefined, 'http://localhost:8081'), 'https://api.example.com');
  t.is(requestBaseUrl(undefined, '127.0.0.1:8081', undefined, 'x'), 'http://127.0.0.1:8081');
  t.is(requestBaseUrl(undefined, 'api.example.com', 'https, http', 'x'), 'https://api.example.com');
  t.is(requestBaseUrl(undefined, '[::1]:8081', undefined, 'x'), 'http://[::1]:8081');
  t.is(requestBaseUrl(undefined, 'evil.test/"><script>', undefined, 'http://localhost:8081'), 'http://localhost:8081');
  t.is(requestBaseUrl(undefined, undefined, undefined, 'http://localhost:8081'), 'http://localhost:8081');
});
