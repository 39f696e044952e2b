// One way for every command to read its command line: --help prints the usage, flags are kebab-case
// (an old camelCase spelling still works, with a warning), and an unknown flag or a missing value is
// one line plus the usage, exit 2, never a stack trace.
import { statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from '../bootstrap.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandLineSpec<O extends Options> {
  usage: string;
  options: O;
  /** Words after the command (admin's `key create`), if it takes any. */
  positionals?: boolean;
}

const camelOf = (kebab: string) => kebab.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Reads `argv` without side effects: the values, `help: true`, or a CliError saying what is wrong. */
export function readCommandLine<O extends Options>(spec: CommandLineSpec<O>, argv: string[], warn: (line: string) => void = () => undefined) {
  const renamed = new Map(Object.keys(spec.options).filter((name) => name.includes('-')).map((name) => [camelOf(name), name]));
  const args = argv.map((arg) => {
    const m = /^--([^=]+)(=.*)?$/.exec(arg);
    const kebab = m ? renamed.get(m[1]!) : undefined;
    if (!m || !kebab) return arg;
    warn(`--${m[1]} is now spelled --${kebab}`);
    return `--${kebab}${m[2] ?? ''}`;
  });
  if (args.includes('--help') || args.includes('-h')) return { help: true as const };
  try {
    const parsed = parseArgs({ args, options: spec.options, allowPositionals: spec.positionals ?? false, strict: true });
    return { help: false as const, values: parsed.values, positionals: parsed.positionals };
  } catch (err) {
    throw new CliError(`${(err as Error).message.split('\n')[0]}\n${spec.usage}`);
  }
}

/**
 * readCommandLine for an entry point: prints the usage and exits 0 on --help, warns on stderr, and
 * on a bad flag prints the one line and the usage and exits 2 (also where no runMain catches it).
 */
export function commandLine<O extends Options>(spec: CommandLineSpec<O>, argv = process.argv.slice(2)) {
  let read: ReturnType<typeof readCommandLine<O>>;
  try {
    read = readCommandLine(spec, argv, (line) => console.error(`warning: ${line}`));
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    console.error(err.message);
    process.exit(err.exitCode);
  }
  if (read.help) {
    console.log(spec.usage);
    process.exit(0);
  }
  return read;
}

/** A directory flag's value, or a CliError naming what is missing (a stack trace says nothing to an operator). */
export function requireDirectory(flag: string, path: string | undefined, usage: string): string {
  if (!path) throw new CliError(`--${flag} is required\n${usage}`);
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new CliError(`--${flag}: no directory ${path}\n${usage}`);
  return path;
}
