import test from 'ava';
import Module from 'node:module';
import { swaggerUi } from '../../src/index';

// In a process of its own (ava runs each file in one): swagger-ui-dist made unfindable, as in an app that
// did not install it.
test('without swagger-ui-dist installed, swaggerUi() stops with the package to install', (t) => {
  const modules = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = modules._resolveFilename;
  modules._resolveFilename = function (request: string, ...rest: unknown[]) {
    if (request === 'swagger-ui-dist' || request.startsWith('swagger-ui-dist/')) {
      throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' });
    }
    return resolve.call(this, request, ...rest);
  };
  t.teardown(() => (modules._resolveFilename = resolve));
  const error = t.throws(() => swaggerUi());
  t.is(
    error?.message,
    'swaggerUi() serves the files of the package swagger-ui-dist, which is not installed: npm install swagger-ui-dist',
  );
  t.is((error as { code?: string }).code, 'RU_ERR_MISSING_PACKAGE');
});
