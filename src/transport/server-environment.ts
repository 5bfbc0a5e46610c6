// The environment a stdio server is started with, as MCP clients start theirs: a safe default set
// of variables, never the checker's whole environment (CI secrets would reach the server).

/**
 * The variables an MCP client passes to a stdio server by default: the MCP SDK's
 * DEFAULT_INHERITED_ENV_VARS (`getDefaultEnvironment()`), kept here because importing the SDK's
 * stdio module loads its schemas (~0.2 s); a test keeps the two lists equal.
 */
export const DEFAULT_INHERITED_ENV_VARS =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** What the SDK's getDefaultEnvironment() returns: the safe variables, shell functions left out. */
export function defaultEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = env[key];
    if (value !== undefined && !value.startsWith('()')) out[key] = value;
  }
  return out;
}
