import { mediaEssence } from './media-type';
import { ownClassMetadata } from '../metadata/store';
import type { Constructor } from '../metadata/types';
import { registryChanged } from './generation';
import { splitMediaTypes } from '../util/media-type-list';
import { errors } from '../errors/factories';

/** A reader, writer or handler given as a class (instantiated and cached by the framework) or as an instance. */
export type Provided<T> = Constructor<T> | T;

interface Entry<T> {
  key: Function | string;
  provider: Provided<T>;
}

/**
 * Readers, writers or exception handlers keyed by class type or media type, in registration order.
 * Classes decorated with `@Consumes`/`@Produces` (or `@Handles`) can be registered without a key.
 */
export class MediaTypeRegistry<T> {
  private readonly byType: Entry<T>[] = [];
  private readonly byMedia = new Map<string, Provided<T>>();

  constructor(
    private readonly what: 'reader' | 'writer' | 'exception handler',
    private readonly global: boolean,
  ) {}

  /** `register(Type, Impl)`, `register('application/json', Impl)` (or a comma list of media types) or `register(ImplWithProducesOrHandles)`. */
  register(keyOrProvider: Function | string | Provided<T>, provider?: Provided<T>): this {
    if (provider === undefined) {
      const impl = keyOrProvider as Provided<T>;
      const ctor = (typeof impl === 'function' ? impl : (impl as any).constructor) as Function;
      const meta = ownClassMetadata(ctor);
      const media = this.what === 'reader' ? meta?.consumes : this.what === 'writer' ? meta?.produces : undefined;
      if (meta?.handles) this.addType(meta.handles, impl);
      else if (media && media.length > 0) for (const m of media) this.byMedia.set(mediaEssence(m), impl);
      else if (this.what === 'exception handler') this.addType(Error, impl);
      else
        throw errors.RU_ERR_REGISTRATION(
          `Cannot register ${this.what} ${ctor.name}: give a type or media type key, or decorate it with @${this.what === 'reader' ? 'Consumes' : 'Produces'} or @Handles`,
        );
    } else if (typeof keyOrProvider === 'string') {
      for (const m of splitMediaTypes([keyOrProvider])) this.byMedia.set(mediaEssence(m), provider);
    } else this.addType(keyOrProvider as Function, provider);
    if (this.global) registryChanged();
    return this;
  }

  private addType(type: Function, provider: Provided<T>): void {
    if (this.what === 'exception handler') {
      const existing = this.byType.find((e) => e.key === type);
      if (existing) {
        const name = (p: Provided<T>) => (typeof p === 'function' ? (p as Function).name : (p as any).constructor.name);
        throw errors.RU_ERR_DUPLICATE_HANDLER(
          `Exception handler for: ${type.name} already registered with: ${name(existing.provider)}`,
        );
      }
    }
    this.byType.push({ key: type, provider });
  }

  /** The first registered for a type the given type is assignable to. */
  forType(type: Function | undefined): Provided<T> | undefined {
    if (type === undefined) return undefined;
    for (const e of this.byType) {
      const key = e.key as Function;
      if (type === key || type.prototype instanceof key) return e.provider;
    }
    return undefined;
  }

  /** Registered for the media type exactly, then `type/*`, then `*\/*`. */
  forMediaType(mediaType: string | undefined): Provided<T> | undefined {
    if (mediaType === undefined) return undefined;
    const essence = mediaEssence(mediaType);
    return (
      this.byMedia.get(essence) ??
      this.byMedia.get(essence.slice(0, essence.indexOf('/')) + '/*') ??
      this.byMedia.get('*/*')
    );
  }

  /** Every entry keyed by type, in registration order. */
  typeEntries(): ReadonlyArray<{
    /** The class type. */
    key: Function;
    /** What serves it. */
    provider: Provided<T>;
  }> {
    return this.byType as any;
  }

  /** Whether any entry is keyed by a class type. */
  hasTypeEntries(): boolean {
    return this.byType.length > 0;
  }

  /** Removes every entry. */
  clear(): void {
    this.byType.length = 0;
    this.byMedia.clear();
    if (this.global) registryChanged();
  }
}
