// ES module entry of rest.uws: re-exports the CommonJS build, so `import` and `require` share one
// copy of the framework (one metadata store, one set of global settings: no dual-package hazard).
export * from '../dist/src/index.js';
