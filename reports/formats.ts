/**
 * The report formats, by the name used on the command line: the option table's list (the CLI offers
 * them without loading any reporter; reports/index.ts maps each to its renderer, a test keeps the
 * two equal).
 */
export { FORMAT_NAMES } from '../src/library/option-table.js';
