import type { VoiceCapabilities } from '../session/session-request';

/** One glossary entry: a source phrase and the target phrase it always becomes. */
export interface GlossaryEntry {
  readonly source: string;
  readonly target: string;
}

/** A glossary's mapping for one language pair (DeepL's "dictionary"). Languages are lower-case base tags. */
export interface GlossaryDictionary {
  readonly sourceLang: string;
  readonly targetLang: string;
  readonly entries: readonly GlossaryEntry[];
}

/** A glossary as listed: its dictionaries' pairs and sizes, no entries. */
export interface GlossaryInfo {
  readonly id: string;
  readonly name: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly dictionaries: ReadonlyArray<{
    readonly sourceLang: string;
    readonly targetLang: string;
    readonly entryCount: number;
  }>;
}

/** DeepL's limits: 1024 UTF-8 bytes per name and per phrase, 1000 glossaries per account (here: per API key). */
export const GLOSSARY_LIMITS = { nameBytes: 1024, phraseBytes: 1024, glossariesPerKey: 1000 } as const;

/** The dictionary language a session target uses: its base language (`pt-BR` uses `pt`, `en-GB` uses `en`). */
export function dictionaryLanguageOf(target: string): string {
  return target.split('-')[0].toLowerCase();
}

/**
 * The language pairs a glossary dictionary may have here: from each recognised source language to the base language
 * of each translation target (`pt` covers `pt-PT` and `pt-BR`), never to itself.
 */
export function glossaryPairs(capabilities: VoiceCapabilities): Map<string, string[]> {
  const pairs = new Map<string, string[]>();
  for (const source of capabilities.sourceLanguages) {
    const base = dictionaryLanguageOf(source);
    const targets = [...new Set(capabilities.targetsFor(source).map(dictionaryLanguageOf))].filter((t) => t !== base);
    pairs.set(base, targets.sort());
  }
  return pairs;
}
