import type { Exchange } from '../exchange';

/** One stage of a compiled route or upgrade: returns a promise only when it really waits. */
export type Step = (ctx: Exchange) => void | Promise<void>;
