/** Child processes the runner started (servers, wrk), killed if the runner exits early (Ctrl-C, an error). */
import type { ChildProcess } from 'node:child_process';

const liveChildren = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

export function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
}
