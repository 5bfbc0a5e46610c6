// A server command as a target: every session is a server process of its own.
import { StdioWire, type StdioCommand } from './stdio.js';
import type { Wire } from './types.js';
import { ProcessFamily } from './stragglers.js';
import { publishableArguments } from '../safety/arguments.js';
import { shellWord } from '../util/text.js';
import { PooledTarget, type Target, type TargetOptions } from './target.js';

/** Over stdio, each session is one server process. */
export class StdioTarget extends PooledTarget {
  readonly kind = 'stdio' as const;
  readonly describe: string;
  readonly launch: NonNullable<Target['launch']>;
  /** Its servers and what they start: cleaned up at the end, and never another target's. */
  private readonly family: ProcessFamily;

  constructor(
    private readonly command: StdioCommand,
    options: TargetOptions,
  ) {
    super(options);
    this.family = new ProcessFamily(options.meter);
    // As reports show it and a reader may paste it: a secret among its arguments is `${VAR}` (what init writes), never
    // the value.
    this.describe = publishableArguments([command.command, ...command.args])
      .args.map(quoteIfNeeded)
      .join(' ');
    const env = Object.keys(command.env ?? {});
    this.launch = {
      ...(command.cwd ? { cwd: command.cwd } : {}),
      ...(env.length ? { env } : {}),
      ...(command.inheritEnv ? { inheritEnv: true } : {}),
    };
  }

  protected startWire(): Promise<Wire> {
    return StdioWire.start(this.command, this.family, this.limits, (text) => this.redactor.text(text));
  }

  transport(): 'stdio' {
    return 'stdio';
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    // Whatever its servers started and left behind (even outside their process groups).
    this.family.killStragglers();
  }
}

function quoteIfNeeded(arg: string): string {
  // A ${VAR} placeholder stays one the shell reads from the environment: double quotes.
  if (!/^[\w@%+=:,./-]+$/.test(arg) && /\$\{[A-Z0-9_]+\}/.test(arg) && !/["`\\]/.test(arg)) return `"${arg}"`;
  return shellWord(arg);
}
