import type { TemplatedApp } from 'uWebSockets.js';

/**
 * Token for the uWebSockets.js app in `@Context() app: UwsApp`: TemplatedApp is an interface, which
 * TypeScript's metadata cannot name, so this class stands in for it (and merges its type).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface gives the injection token the app's type
export abstract class UwsApp {}
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface UwsApp extends TemplatedApp {}
