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
  t.is(
    readApiKey(headers({ authorization: 'Bearer pk_abc', 'headout-auth': 'pk_xyz' })),
    'pk_abc',
    'Authorization first',
  );
  t.is(readApiKey(headers({ authorization: 'Basic dXNlcjpwYXNz' })), undefined);
  t.is(readApiKey(headers({})), undefined);
  t.regex(missingKeyMessage(headers({ authorization: 'Basic x' })), /must use the Bearer scheme/);
  t.regex(
    missingKeyMessage(headers({})),
    /Missing API key: send "Authorization: Bearer <api key>" or "Headout-Auth: <api key>"/,
  );
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

test('link base: configured URL, else the request host when it is a plain host, with its protocol', (t) => {
  t.is(
    requestBaseUrl('https://api.example.com/', 'evil.test', 'http', 'http://localhost:8081'),
    'https://api.example.com',
  );
  t.is(requestBaseUrl(undefined, '127.0.0.1:8081', 'http', 'x'), 'http://127.0.0.1:8081');
  t.is(requestBaseUrl(undefined, 'api.example.com', 'https', 'x'), 'https://api.example.com');
  t.is(requestBaseUrl(undefined, 'api.example.com', 'gopher', 'x'), 'http://api.example.com');
  t.is(requestBaseUrl(undefined, '[::1]:8081', 'http', 'x'), 'http://[::1]:8081');
  t.is(requestBaseUrl(undefined, 'evil.test/"><script>', 'http', 'http://localhost:8081'), 'http://localhost:8081');
  t.is(requestBaseUrl(undefined, undefined, 'http', 'http://localhost:8081'), 'http://localhost:8081');
});

test('a database that is down, restarting, overloaded or locked is a 503 with Retry-After; other database errors stay 500', (t) => {
  const coded = (code: string, message = 'driver says no') => Object.assign(new Error(message), { code });
  const unavailable = [
    coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('57P03', 'the database system is starting up'),
    coded('53300', 'sorry, too many clients already'),
    coded('57014', 'canceling statement due to statement timeout'),
    coded('08006', 'connection failure'),
    coded('SQLITE_BUSY', 'database is locked'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    new Error('wrapped', { cause: coded('ECONNRESET') }),
    new AggregateError([coded('ECONNREFUSED')], 'every address failed'),
  ];
  for (const error of unavailable) {
    const logged: unknown[] = [];
    const answer = errorResponse(error, (cause) => logged.push(cause));
    t.is(answer.status, 503, error.message);
    t.is(answer.body.error.code, 'E_SERVICE_UNAVAILABLE');
    t.is(
      answer.body.error.message,
      'The booking database is unavailable; the request was not completed. Retry in a few seconds',
    );
    t.deepEqual(answer.headers, { 'Retry-After': '5' });
    t.deepEqual(logged, [], 'not logged as an unexpected error');
  }
  for (const error of [
    coded('23505', 'duplicate key value violates unique constraint'),
    coded('SQLITE_CONSTRAINT'),
    coded('42P01', 'relation "booking" does not exist'),
  ]) {
    t.is(errorResponse(error, () => undefined).status, 500, error.message);
  }
});
