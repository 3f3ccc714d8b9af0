/** `formality` of the session request; engines that cannot honour it ignore it. */
export type Formality = 'default' | 'formal' | 'more' | 'informal' | 'less';

/** Text translation between BCP 47 languages (canonical case, e.g. `pt-BR`). */
export interface Translator {
  /** Target languages reachable from `source`. */
  targetsFor(source: string): readonly string[];
  translate(text: string, source: string, target: string, formality?: Formality): Promise<string>;
  /** Optional warm-up when a session starts, so the first sentence is not slowed by engine start-up. */
  prepare?(source: string, target: string): void;
  /** Releases long-running helpers (processes). */
  close(): Promise<void>;
}
