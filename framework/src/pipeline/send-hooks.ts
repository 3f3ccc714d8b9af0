import type { ResponseChunk } from '../http/response';
import type { SendHook } from './plugin';

/** Send hooks run in order as one, each given the body the previous one left; null when there are none. */
export function composeSendHooks(hooks: readonly SendHook[]): SendHook | null {
  if (hooks.length === 0) return null;
  if (hooks.length === 1) return hooks[0]!;
  return (ctx, body, sent) => {
    let current: ResponseChunk | undefined = body;
    for (let i = 0; i < hooks.length; i++) {
      const out = hooks[i]!(ctx, current, sent);
      if (out !== undefined && !sent.streamed) current = out;
    }
    return current;
  };
}
