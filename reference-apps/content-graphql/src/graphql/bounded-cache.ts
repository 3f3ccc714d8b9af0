import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache bounded by entry count and by total size (characters of keys and values). Caches
 * keyed by client input (query texts, variables) need the size bound: 5,000 entries of megabyte-long queries would
 * otherwise hold gigabytes. An entry larger than a quarter of the whole budget is not kept: it is not worth evicting
 * everything else for.
 */
export function boundedCache<V extends {}>(
  maxEntries: number,
  maxSize: number,
  sizeOf: (key: string, value: V) => number,
): LRUCache<string, V> {
  return new LRUCache<string, V>({
    max: maxEntries,
    maxSize,
    maxEntrySize: Math.floor(maxSize / 4),
    // lru-cache wants sizes of at least 1.
    sizeCalculation: (value, key) => Math.max(1, sizeOf(key, value)),
  });
}
