import { ConfigError } from '../settings.ts'
import { StartupError } from '../startup/startup-error.ts'
import { type Command, helpText, parseCommand, UsageError } from './command.ts'
import { COMMANDS, serve } from './commands.ts'
import { packageVersion } from './version.ts'

function overview(commands: Command[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return [
    'usage: cloudplane <command> [options]',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    '`cloudplane <command> --help` shows its options; `cloudplane --version` the version.',
    'Commands that print a token print it alone on stdout; everything else goes to stderr.',
    '',
  ].join('\n')
}

/** The command named by the first one or two words, and the arguments after them. */
function findCommand(argv: string[]): { command: Command; args: string[] } | undefined {
  const two = COMMANDS.find((c) => c.name === `${argv[0]} ${argv[1]}`)
  if (two) return { command: two, args: argv.slice(2) }
  const one = COMMANDS.find((c) => c.name === argv[0])
  return one ? { command: one, args: argv.slice(1) } : undefined
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help'

export async function runCli(argv: string[]): Promise<void> {
  if (argv.length === 0) return (await serve.load()).run({}, [])
  const [first] = argv
  if (first === '--version' || first === '-v') {
    process.stdout.write(`cloudplane ${packageVersion()}\n`)
    return
  }
  if (isHelp(first) && argv.length === 1) {
    process.stdout.write(overview())
    return
  }
  // `cloudplane help token create` is `cloudplane token create --help`.
  const words = first === 'help' ? [...argv.slice(1), '--help'] : argv
  const found = findCommand(words)
  if (found === undefined) {
    // `cloudplane account` and `cloudplane account --help` list the account commands.
    const group = COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `))
    if (group.length > 0 && (words.length === 1 || isHelp(words[1]))) {
      if (words.length === 1) throw new UsageError(`${words[0]} needs a command\n${overview(group)}`)
      process.stdout.write(overview(group))
      return
    }
    const asked = first === 'help' ? argv.slice(1) : words
    throw new UsageError(`unknown command "${asked.join(' ')}"; see cloudplane --help`)
  }
  const parsed = parseCommand(found.command, found.args)
  if (parsed.help) {
    process.stdout.write(helpText(found.command))
    return
  }
  await (await found.command.load()).run(parsed.values, parsed.positionals)
}

/** One line on stderr, and the exit code: 2 for a usage or setting mistake, 1 for anything else. */
export function reportFailure(error: unknown): number {
  const say = (message: string) => process.stderr.write(`cloudplane: ${message}\n`)
  if (error instanceof UsageError || error instanceof ConfigError) {
    say(error.message)
    return 2
  }
  if (error instanceof StartupError) {
    say(error.message)
    return 1
  }
  const e = error as NodeJS.ErrnoException
  if (e?.code === 'ECONNREFUSED') say(`cannot reach the database: ${e.message}`)
  else say(e instanceof Error ? e.message : String(error))
  return 1
}
