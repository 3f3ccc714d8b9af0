// ES module entry of rest.uws/plugin: re-exports the CommonJS build (one copy of the framework, as esm/index.mjs).
export * from '../dist/src/plugin.js';
