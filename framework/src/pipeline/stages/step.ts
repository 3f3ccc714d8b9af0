import type { RoutingContext } from '../../context/routing-context';

/** One stage of a compiled route or upgrade: returns a promise only when it really waits. */
export type Step = (ctx: RoutingContext) => void | Promise<void>;
