import type { TemplatedApp } from 'uWebSockets.js';
import type { RestBuilder } from '../../src/index';
import type { Logger } from '../../src/util/log';
import { listen, type RunningServer } from '../support/server';

/** Builds and listens; the caller closes. */
export async function serve(builder: RestBuilder | TemplatedApp): Promise<RunningServer> {
  const app =
    typeof (builder as RestBuilder).build === 'function' ? (builder as RestBuilder).build() : (builder as TemplatedApp);
  return listen(app);
}

/** A logger that keeps every line, to check what was (and was not) logged. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (obj: unknown, msg?: string) => {
    const o = obj instanceof Error ? { message: obj.message, stack: obj.stack } : obj;
    lines.push(
      JSON.stringify({ o, msg }, (_k, v) =>
        v instanceof Error ? { message: v.message, stack: v.stack, cause: String(v.cause) } : v,
      ),
    );
  };
  return { lines, error: keep, warn: keep, info: keep, debug: keep };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}
