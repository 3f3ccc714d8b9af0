// Types of the ES module entry: the same declarations as the CommonJS build.
export * from '../dist/src/index.js';
