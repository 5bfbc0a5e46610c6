/**
 * The report formats, by the name used on the command line. A list of its own, so that the CLI can
 * offer them without loading any reporter (reports/index.ts maps each to its renderer; a test keeps
 * the two equal).
 */
export const FORMAT_NAMES = ['text', 'json', 'junit', 'sarif', 'github', 'markdown', 'html'] as const;
