/**
 * Bounds on what one request may produce. Big answers are cut with a note saying so,
 * rather than refused, so the model can narrow its request.
 */
export const LIMITS = {
  /** Entries of one list_directory answer. */
  listEntries: 1000,
  /** Entries of one directory_tree answer. */
  treeEntries: 2000,
  /** Deepest directory_tree. */
  treeDepth: 20,
  /** Paths one search_files answer returns. */
  searchResults: 500,
  /** Matching lines one search_content answer returns. */
  contentMatches: 200,
  /** Directory entries one walk may visit (search, resources/list). */
  walkEntries: 20_000,
  /** Bytes one search_content call reads in all. */
  searchBytes: 64 * 1024 * 1024,
  /** Files in one read_multiple_files call. */
  filesPerRead: 25,
  /** Files resources/list shows. */
  listedResources: 500,
  /** Rows one query returns. */
  queryRows: 500,
  /** Bytes of git output one answer keeps. */
  gitOutputBytes: 512 * 1024,
  /** How long one git command may run, ms. */
  gitTimeoutMs: 10_000,
  /** Characters of one search_content line shown. */
  lineChars: 240,
} as const;

/** Directories that walks (tree, search, listing, watching) step over: noise, not content. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules"]);

/** How many directories are watched for resource subscriptions, unless said. */
export const DEFAULT_MAX_WATCHED_DIRECTORIES = 1000;
