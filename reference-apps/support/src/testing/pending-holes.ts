import type { PendingHole } from './corpus-runner';

/**
 * Holes in rest.uws itself that the apps' corpora find and engineer `security` is fixing (issue 17). An app's corpus
 * test lists those it meets; once fixed, the test fails until the entry is removed here, so the corpus then guards the fix.
 */
export const FRAMEWORK_HOLES = {} satisfies Record<string, PendingHole>;
