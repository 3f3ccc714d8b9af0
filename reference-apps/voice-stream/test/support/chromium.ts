import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';

export const CHROMIUM_INSTALL_COMMAND = 'apt-get install -y chromium';

/** Headless Chromium driven over the DevTools protocol (no extra npm package). */
export interface Browser {
  /** Opens `url` in the page and waits for its load event. */
  navigate(url: string): Promise<void>;
  /** Evaluates an expression in the page and returns its (JSON) value. */
  evaluate<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

/**
 * Starts Chromium with a fake microphone that plays `fakeAudioWav` (looping), media permission granted
 * and audio allowed to start without a click.
 */
export async function launchChromium(fakeAudioWav: string): Promise<Browser> {
  const binary = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));
  if (!binary) throw new Error(`Chromium is not installed; run: ${CHROMIUM_INSTALL_COMMAND}`);
  const profile = mkdtempSync(path.join(tmpdir(), 'voice-chromium-'));
  const child: ChildProcess = spawn(
    binary,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${fakeAudioWav}`,
      '--autoplay-policy=no-user-gesture-required',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const port = await waitForDevToolsPort(profile, child);
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      type: string;
      webSocketDebuggerUrl: string;
    }[];
    const page = targets.find((target) => target.type === 'page');
    if (!page) throw new Error('Chromium has no page target');
    const devtools = await DevToolsSession.open(page.webSocketDebuggerUrl);
    await devtools.call('Page.enable');
    await devtools.call('Runtime.enable');
    return {
      navigate: async (url) => {
        const loaded = devtools.once('Page.loadEventFired');
        await devtools.call('Page.navigate', { url });
        await loaded;
      },
      evaluate: async <T>(expression: string) => {
        const result = (await devtools.call('Runtime.evaluate', {
          expression,
          returnByValue: true,
          awaitPromise: true,
        })) as {
          result: { value: T };
          exceptionDetails?: { text: string };
        };
        if (result.exceptionDetails) throw new Error(`page error: ${result.exceptionDetails.text}`);
        return result.result.value;
      },
      close: async () => {
        devtools.close();
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
        await removeProfile(profile);
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    await removeProfile(profile);
    throw error;
  }
}

/**
 * Removes the profile once no process uses it: Chromium's helper processes (GPU, network, crashpad) outlive the
 * browser by a moment and write into it, which made an rmdir fail on a loaded CI machine (ENOTEMPTY).
 */
async function removeProfile(profile: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && processesUsing(profile)) await new Promise((resolve) => setTimeout(resolve, 100));
  rmSync(profile, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
}

/** Whether a process of this machine names the profile on its command line (every Chromium process does). */
function processesUsing(profile: string): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) return true;
    } catch {
      // gone meanwhile
    }
  }
  return false;
}

/** Chromium writes the port it chose for --remote-debugging-port=0 into the profile. */
async function waitForDevToolsPort(profile: string, child: ChildProcess): Promise<number> {
  const file = path.join(profile, 'DevToolsActivePort');
  for (let waited = 0; waited < 20_000; waited += 100) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (existsSync(file)) {
      const port = Number(readFileSync(file, 'utf8').split('\n')[0]);
      if (port > 0) return port;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Chromium did not open its DevTools port within 20 s');
}

class DevToolsSession {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly listeners = new Map<string, Array<(params: unknown) => void>>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: unknown;
      };
      if (message.id !== undefined) {
        const call = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) call?.reject(new Error(message.error.message));
        else call?.resolve(message.result);
      } else if (message.method) {
        for (const listener of this.listeners.get(message.method) ?? []) listener(message.params);
        this.listeners.delete(message.method);
      }
    });
  }

  static open(url: string): Promise<DevToolsSession> {
    const socket = new WebSocket(url, { perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new DevToolsSession(socket)));
      socket.once('error', reject);
    });
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  once(method: string): Promise<unknown> {
    return new Promise((resolve) => {
      const list = this.listeners.get(method) ?? [];
      list.push(resolve);
      this.listeners.set(method, list);
    });
  }

  close(): void {
    this.socket.close();
  }
}
