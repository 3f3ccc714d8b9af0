/** `formality` of the session request; engines that cannot honour it ignore it. */
export type Formality = 'default' | 'formal' | 'more' | 'informal' | 'less';

/** Text translation between BCP 47 languages (canonical case, e.g. `pt-BR`). */
export interface Translator {
  /** Target languages reachable from `source`. */
  targetsFor(source: string): readonly string[];
  translate(text: string, source: string, target: string, formality?: Formality): Promise<string>;
  /** Releases long-running helpers (processes). */
  close(): Promise<void>;
}
