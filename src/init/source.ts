// What init reads a server into: its own file, so that what init writes from it (the plan, the
// Tool Card stubs) depends on it and not on one another.
/** What init starts from: a server's tools/list, and what else it said about itself. */
export interface InitSource {
  tools: Array<Record<string, unknown>>;
  serverInfo?: { name?: string; version?: string };
  /** How the checker reaches the server: the command words (stdio) or the URL. */
  command?: string[];
  /**
   * Secrets of the command that the written command reads from the environment instead
   * (`--api-key ${API_KEY}`): the variables to set, and which argument each stands for.
   */
  variables?: Array<{ variable: string; source: string }>;
  /**
   * The server's environment as the committed config holds it: a secret read from the environment (`${KEY}`), never its
   * value; the others as given.
   */
  env?: Record<string, string>;
  /** The variables of `env` written as given (nothing secret in their names or values). */
  plainEnv?: string[];
  /** Where the written folder is, relative to where the command runs (`cwd`): serve reads it from there. */
  folderFromCwd?: string;
  /** Where the command runs, relative to the output folder (the config lives there). */
  cwd?: string;
  url?: string;
  /** HTTP headers for the config, as they may be published ($VARIABLES, never values). */
  headers?: Record<string, string>;
  /** The server's ai_help markdown, when it speaks dashdash. */
  aiHelp?: string;
  /**
   * The server serves progressive disclosure already: `tools` are its full descriptions, read from
   * this resource (its own tool form of the resource left out).
   */
  disclosedBy?: string;
  /** With `disclosedBy`: the server's own tools/list entries, its tool form among them (what it costs today). */
  listed?: Array<Record<string, unknown>>;
}
