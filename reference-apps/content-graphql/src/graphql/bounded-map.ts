/**
 * A Map bounded by entry count and by total size (characters of keys and values), dropping the oldest entries
 * first. Caches keyed by client input (query texts, variables) need the size bound: 5,000 entries of
 * megabyte-long queries would otherwise hold gigabytes.
 */
export class BoundedMap<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private used = 0;

  constructor(private readonly maxEntries: number, private readonly maxSize: number, private readonly sizeOf: (key: string, value: V) => number) {}

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(key, value);
    // Something larger than a quarter of the whole budget is not worth evicting everything else for.
    if (size > this.maxSize / 4) return;
    this.delete(key);
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.used + size > this.maxSize)) this.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, size });
    this.used += size;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.used -= entry.size;
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Characters held, keys and values. */
  get usedSize(): number {
    return this.used;
  }
}
