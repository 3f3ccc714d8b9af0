import type { ChangeKind } from './store-access';

/** PostgreSQL channel on which every process that writes content, schemas or tokens announces it. */
export const CHANGE_CHANNEL = 'content_graphql_changes';

/** What a write announces: its kind, the process that made it and the content version it wrote. */
export interface ChangeNotice {
  kind: ChangeKind;
  /** `ContentStore.instanceId` of the writer, so that it can ignore its own notices. */
  origin: string;
  version: string;
}

const KINDS: readonly ChangeKind[] = ['content', 'structure', 'access'];

/** Reads a notification payload; undefined for anything that is not a notice (another program on the channel). */
export function parseChangeNotice(payload: string | undefined): ChangeNotice | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Partial<ChangeNotice>;
    if (
      !KINDS.includes(value.kind as ChangeKind) ||
      typeof value.origin !== 'string' ||
      typeof value.version !== 'string'
    )
      return undefined;
    return { kind: value.kind as ChangeKind, origin: value.origin, version: value.version };
  } catch {
    return undefined;
  }
}
