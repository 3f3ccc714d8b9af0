import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Formality, Translator } from '../translator';
import { APERTIUM_MODES_DIRECTORY, ApertiumPipeline } from './apertium-pipeline';

/**
 * English targets and the Apertium modes that reach them. Debian 12 has no direct English pair for French,
 * Portuguese or Italian, so those go through Spanish.
 */
export const APERTIUM_ROUTES: Readonly<Record<string, readonly string[]>> = {
  es: ['eng-spa'],
  ca: ['eng-cat'],
  gl: ['en-gl'],
  fr: ['eng-spa', 'es-fr'],
  it: ['eng-spa', 'spa-ita'],
  pt: ['eng-spa', 'es-pt'],
  'pt-PT': ['eng-spa', 'es-pt'],
  'pt-BR': ['eng-spa', 'es-pt_BR'],
};

/** Same-language "targets" are passed through unchanged. */
const IDENTITY_TARGETS = ['en', 'en-GB', 'en-US'];

/** Debian packages providing each mode, for install hints. */
export const APERTIUM_PACKAGES: Readonly<Record<string, string>> = {
  'eng-spa': 'apertium-eng-spa',
  'eng-cat': 'apertium-eng-cat',
  'en-gl': 'apertium-en-gl',
  'es-fr': 'apertium-fr-es',
  'es-pt': 'apertium-es-pt',
  'es-pt_BR': 'apertium-es-pt',
  'spa-ita': 'apertium-spa-ita',
};

/** Recently translated (mode, text) pairs, so a pivot through Spanish is computed once for all targets. */
const CACHE_SIZE = 64;

/** Rule-based offline translation with Debian's Apertium, from English. */
export class ApertiumTranslator implements Translator {
  private readonly pipelines = new Map<string, ApertiumPipeline>();
  private readonly cache = new Map<string, Promise<string>>();

  constructor(private readonly modesDirectory = APERTIUM_MODES_DIRECTORY) {}

  targetsFor(source: string): readonly string[] {
    if (source !== 'en') return [];
    const routed = Object.entries(APERTIUM_ROUTES)
      .filter(([, modes]) => modes.every((mode) => existsSync(path.join(this.modesDirectory, `${mode}.mode`))))
      .map(([target]) => target);
    return [...IDENTITY_TARGETS, ...routed];
  }

  /** Modes missing for `target`, with the packages to install (empty when all is there). */
  missingPackagesFor(target: string): string[] {
    const modes = APERTIUM_ROUTES[target] ?? [];
    return modes
      .filter((mode) => !existsSync(path.join(this.modesDirectory, `${mode}.mode`)))
      .map((mode) => APERTIUM_PACKAGES[mode]);
  }

  async translate(text: string, source: string, target: string, _formality?: Formality): Promise<string> {
    if (source !== 'en') throw new Error(`no translation from ${source}`);
    if (IDENTITY_TARGETS.includes(target)) return text;
    const modes = APERTIUM_ROUTES[target];
    if (!modes) throw new Error(`no translation from ${source} to ${target}`);
    let result = text;
    for (const mode of modes) result = await this.step(mode, result);
    return result;
  }

  prepare(source: string, target: string): void {
    if (source !== 'en') return;
    for (const mode of APERTIUM_ROUTES[target] ?? []) this.pipeline(mode).start();
  }

  async close(): Promise<void> {
    for (const pipeline of this.pipelines.values()) pipeline.close();
    this.pipelines.clear();
    this.cache.clear();
  }

  private pipeline(mode: string): ApertiumPipeline {
    let pipeline = this.pipelines.get(mode);
    if (!pipeline) {
      pipeline = new ApertiumPipeline(mode, this.modesDirectory);
      this.pipelines.set(mode, pipeline);
    }
    return pipeline;
  }

  private step(mode: string, text: string): Promise<string> {
    const key = `${mode}\0${text}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const result = this.pipeline(mode).translate(text);
    this.cache.set(key, result);
    result.catch(() => this.cache.delete(key));
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    return result;
  }
}
