// What init writes into a config that is committed: the server's command, URL, headers and
// environment with no secret value in them (a `${VAR}` placeholder, read where the check runs).
// `mcp-pd-check init`: from a server's tools/list to a progressive-disclosure starting point. It
// reads (initialize, tools/list, ai_help) and never calls a tool.
import { type InitSource } from '../init/init.js';
import { REVIEW } from '../init/review.js';
import { ENV_REFERENCE } from './server-options.js';
import { argumentSecrets, publishableArguments } from '../safety/arguments.js';
import { environmentSecrets, isSecretName } from '../safety/redact.js';

/**
 * The URL as the config may keep it: the config is committed, so credentials (user:password@)
 * and query values never go into it; a URL that had them is marked for review instead.
 */
export function publishableUrl(text: string): string {
  const url = new URL(text);
  if (!url.username && !url.password && !url.search) return text;
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '…');
  return `${REVIEW} ${url.href} (credentials and query values were left out: give secrets as headers with $VARIABLES)`;
}

/**
 * Headers as the config may keep them: a value written with $VARIABLES is kept as
 * written (the secret stays in the environment); a literal value is never written.
 */
export function publishableHeaders(names: readonly string[], written: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    headers[name] = new RegExp(ENV_REFERENCE.source).test(written[name] ?? '')
      ? written[name]
      : `${REVIEW} the ${name} value from an environment variable, e.g. $${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
  }
  return headers;
}

/**
 * The server's environment (--env) as the committed config holds it: a variable whose name or value
 * looks secret (the redaction rules) is read from the environment where the check runs (`${KEY}`,
 * named among the variables to set), never written; the others (HOME, TZ) are written as given, so
 * that the config runs the server as the user did.
 */
export function withEnvironment(
  command: ReturnType<typeof publishableCommand>,
  given: Record<string, string>,
  cwd: string,
  folderFromCwd: string,
): Pick<InitSource, 'command' | 'variables' | 'env' | 'cwd' | 'folderFromCwd' | 'plainEnv'> {
  const keys = Object.keys(given);
  const secret = new Set(
    keys.filter(
      (key) =>
        isSecretName(key) ||
        environmentSecrets({ [key]: given[key] }).length > 0 ||
        argumentSecrets([`--${key.toLowerCase()}=${given[key]}`]).length > 0,
    ),
  );
  const variables = [
    ...(command.variables ?? []),
    ...keys.filter((key) => secret.has(key)).map((key) => ({ variable: key, source: `--env ${key}` })),
  ];
  const plain = keys.filter((key) => !secret.has(key));
  return {
    ...command,
    cwd,
    folderFromCwd,
    ...(variables.length ? { variables } : {}),
    ...(keys.length
      ? { env: Object.fromEntries(keys.map((key) => [key, secret.has(key) ? `\${${key}}` : given[key]])) }
      : {}),
    ...(plain.length ? { plainEnv: plain } : {}),
  };
}

/** The command as the committed config holds it: secrets among its arguments become `${VAR}`. */
export function publishableCommand(words: string[]): {
  command: string[];
  variables?: Array<{ variable: string; source: string }>;
} {
  const { args, variables } = publishableArguments(words);
  return { command: args, ...(variables.length ? { variables } : {}) };
}
