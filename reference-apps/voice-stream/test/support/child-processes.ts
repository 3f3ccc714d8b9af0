import { readdirSync, readFileSync } from 'node:fs';

/** A process as /proc shows it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly parent: number;
  readonly group: number;
  /** Short executable name (/proc/<pid>/comm, at most 15 characters). */
  readonly name: string;
  readonly args: readonly string[];
  /** One-letter state (R, S, T stopped, Z zombie...). */
  readonly state: string;
}

function readEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return { pid, parent: Number(fields[1]), group: Number(fields[2]), name, args, state: fields[0] };
  } catch {
    return undefined; // exited while we looked
  }
}

/** Every living (not zombie) process below `root` (default: this test process), found through /proc. */
export function descendantsOf(root = process.pid): ProcessEntry[] {
  const all = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readEntry(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined && entry.state !== 'Z');
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of all) children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry]);
  const found: ProcessEntry[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      visit(child.pid);
    }
  };
  visit(root);
  // Detached process groups (the Apertium pipelines) stay children of this process, so they are found too.
  return found;
}

/** The process still exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  const entry = readEntry(pid);
  return entry !== undefined && entry.state !== 'Z';
}

/** Polls `probe` every 20 ms until it returns a value; fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
