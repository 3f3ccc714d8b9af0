import type { PendingHole } from './corpus-runner';

/**
 * Holes in rest.uws itself that the apps' corpora find and engineer `security` is fixing (issue 17). An app's corpus
 * test lists those it meets; once fixed, the test fails until the entry is removed here, so the corpus then guards the fix.
 */
export const FRAMEWORK_HOLES = {
  /** Issue 17 item 3: JSON nested thousands deep into a @Valid body answers 500 (a recursive walk overflows). */
  deepValid: {
    issue: 'issue 17 item 3 (deep JSON into a @Valid body answers 500)',
    matches: (failure: string) => /^(deep|fields) \|.*deep.*answered 500/.test(failure),
  },
} satisfies Record<string, PendingHole>;
