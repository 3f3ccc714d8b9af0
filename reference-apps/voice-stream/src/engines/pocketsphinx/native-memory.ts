import koffi from 'koffi';

type Trim = (pad: number) => number;
let trim: Trim | null | undefined;

/**
 * Gives the pages glibc's malloc holds free back to the system (`malloc_trim(0)`), in every arena.
 * A recognition worker frees a ~24 MB decoder after each session and loads a new one; the allocations of
 * the other threads in between leave holes that stay resident, and the process's RSS crept up by about
 * 1 MB a minute under the soak while the memory in use stayed flat. Returns false where there is no glibc.
 */
export function releaseFreeMemory(): boolean {
  if (trim === undefined) {
    try {
      trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
    } catch {
      trim = null;
    }
  }
  if (trim === null) return false;
  trim(0);
  return true;
}
