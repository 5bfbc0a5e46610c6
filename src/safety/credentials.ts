/**
 * What a credential looks like, wherever it appears: the lint finds these in tool metadata
 * (PD §10.2, dashdash §5.1), and every output of the checker masks them in what a server sent.
 */

/** Credentials: secret in themselves, wherever they appear (also masked in a server's output). */
export const CREDENTIAL_PATTERNS: Array<[RegExp, string]> = [
  [/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, 'a private key'],
  [/\bAKIA[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}\b/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{40,}\b/, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/, 'an API secret key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, 'a JSON Web Token'],
  [/\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/, 'a bearer token'],
  // A password given in the text (`password=hunter2`, `pwd: "s3cret"`): the value is what is secret.
  [/\b(?:password|passwd|pwd|passphrase)\s*[=:]\s*["']?([^\s"',;&]{4,})/i, 'a password'],
];

/** Placeholders that only look like secrets: documentation, not leaks. */
const PLACEHOLDER = /x{4,}|\.\.\.|…|<[^>]*>|\$\{|\{\{|YOUR_|EXAMPLE|REDACTED|PLACEHOLDER|dummy|changeme/i;

export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text);
}
