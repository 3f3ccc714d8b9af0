// Types of the ES module entry of rest.uws/plugin: the same declarations as the CommonJS build.
export * from '../dist/src/plugin.js';
