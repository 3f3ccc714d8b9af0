import { errors } from '../errors/factories';
/**
 * Loads reflect-metadata, the peer dependency that holds TypeScript's decorator metadata
 * (`design:paramtypes`, `design:type`). npm installs peer dependencies by itself; `--legacy-peer-deps`
 * and some other package managers do not, so say what to install instead of a bare "Cannot find module".
 */
try {
  require('reflect-metadata');
} catch (err) {
  const missing =
    (err as NodeJS.ErrnoException)?.code === 'MODULE_NOT_FOUND' &&
    String((err as Error).message).includes("'reflect-metadata'");
  if (!missing) throw err;
  throw errors.RU_ERR_MISSING_PACKAGE(
    'rest.uws: the package reflect-metadata is not installed. rest.uws reads the types TypeScript records for decorated classes through it. ' +
      'Add it to your dependencies: npm install reflect-metadata (it is a peer dependency of rest.uws; npm installs those, but not with --legacy-peer-deps).',
    { cause: err },
  );
}
