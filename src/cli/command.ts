import { parseArgs } from 'node:util'
import { SETTINGS, type SettingFlag } from '../settings.ts'

/** A mistake in how the command was called: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}

export interface OptionSpec {
  /** Shown after the flag in the help, e.g. `<name>`. */
  value: string
  help: string
  /** Accepted but not listed (old spellings kept working). */
  hidden?: boolean
}

export type Values = Record<string, string | undefined>

export interface Command {
  /** `token create` */
  name: string
  /** One line for the command list. */
  summary: string
  /** What follows the name in the usage line, e.g. `<region-id> outage|ok`. */
  synopsis: string
  /** Paragraphs shown under the usage line. */
  description: string
  options: Record<string, OptionSpec>
  /** Names of the positional arguments, in order (all required). */
  positionals?: string[]
  /** The implementation, loaded only to run it: help and usage errors answer without the server. */
  load(): Promise<CommandAction>
}

export interface CommandAction {
  run(values: Values, positionals: string[]): Promise<void>
}

/** Every command that acts on a database finds it as `serve` does. */
export const DATABASE_FLAGS = [
  'data-dir',
  'database-url',
  'database-url-file',
  'database-connect-timeout',
  'regions-file',
] as const satisfies readonly SettingFlag[]

/** A line for people, on stderr (stdout carries only what scripts capture: tokens, limits). */
export const say = (line: string) => process.stderr.write(`cloudplane: ${line}\n`)

/** The flags of settings (`--data-dir` …) as command options, with their environment variable. */
export function settingOptions(flags: readonly SettingFlag[]): Record<string, OptionSpec> {
  return Object.fromEntries(
    flags.map((flag) => [
      flag,
      { value: SETTINGS[flag].value, help: `${SETTINGS[flag].help} (${SETTINGS[flag].env})` },
    ]),
  )
}

/** The values of setting flags, for loadConfig. */
export function settingValues(
  values: Values,
  flags: readonly SettingFlag[],
): Partial<Record<SettingFlag, string>> {
  return Object.fromEntries(flags.filter((f) => values[f] !== undefined).map((f) => [f, values[f]]))
}

export function helpText(command: Command): string {
  const rows: Array<[string, string]> = Object.entries(command.options)
    .filter(([, option]) => !option.hidden)
    .map(([flag, option]) => [`--${flag} ${option.value}`, option.help])
  rows.push(['-h, --help', 'show this help'])
  const width = Math.max(...rows.map(([left]) => left.length)) + 2
  return [
    `usage: cloudplane ${command.name}${command.synopsis ? ` ${command.synopsis}` : ''}`,
    '',
    command.description,
    '',
    'options:',
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    '',
  ].join('\n')
}

/**
 * `--flag -5` would read as a flag without its value; `--flag=-5` reaches the option's own check,
 * which then says what values it takes.
 */
function joinNegativeValues(args: string[], options: Record<string, OptionSpec>): string[] {
  const joined: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    const next = args[i + 1]
    if (arg.startsWith('--') && arg.slice(2) in options && next !== undefined && /^-[0-9.]/.test(next)) {
      joined.push(`${arg}=${next}`)
      i++
    } else joined.push(arg)
  }
  return joined
}

export type Parsed = { help: true } | { help: false; values: Values; positionals: string[] }

/** Parses a command's arguments strictly; any mistake is a UsageError naming the command. */
export function parseCommand(command: Command, args: string[]): Parsed {
  if (args.some((a) => a === '--help' || a === '-h')) return { help: true }
  const options = Object.fromEntries(
    Object.keys(command.options).map((f) => [f, { type: 'string' as const }]),
  )
  const expected = command.positionals ?? []
  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, command.options),
      options,
      strict: true,
      allowPositionals: expected.length > 0,
    })
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'bad arguments'
    throw new UsageError(`${command.name}: ${lowerFirst(message)}; see cloudplane ${command.name} --help`)
  }
  if (parsed.positionals.length !== expected.length) {
    throw new UsageError(`${command.name} needs ${expected.join(' and ')}`)
  }
  return { help: false, values: parsed.values as Values, positionals: parsed.positionals }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)
