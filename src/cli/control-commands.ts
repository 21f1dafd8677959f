import type { Command, CommandAction, OptionSpec } from './command.ts'

/** `--url` and `--admin-key`: where the running server is, and the key of its control API. */
export const CONTROL_OPTIONS: Record<string, OptionSpec> = {
  url: { value: '<url>', help: 'the running server [$CLOUDPLANE_URL or http://127.0.0.1:8080]' },
  'admin-key': { value: '<key>', help: 'the control API key [$CLOUDPLANE_ADMIN_KEY]' },
  'admin-key-file': {
    value: '<file>',
    help: 'the control API key from the first line of a file [$CLOUDPLANE_ADMIN_KEY_FILE]',
  },
}

/** An option's line in the help: the value it takes and what it does. */
export const opt = (value: string, help: string): OptionSpec => ({ value, help })

/** Options that pick requests the same way wherever they appear (fault rules, the journal). */
export const REQUEST_OPTIONS = {
  method: opt('<method>', 'only requests with this method (GET, POST, PUT, DELETE)'),
  username: opt('<name>', "only requests in this user's account"),
  seed: opt('<text>', 'makes the random draws repeatable'),
} satisfies Record<string, OptionSpec>

export const AGAINST = 'Works against a running server (--url) through its control API (--admin-key).'

type Actions = Record<string, CommandAction['run']>

/**
 * The builder of a family of control API commands: each has its options beside `--url` and
 * `--admin-key`, and its action is looked up by name in `actions`, a table imported only when the
 * command runs.
 */
export function controlCommandsOf(actions: () => Promise<Actions>) {
  return (
    name: string,
    summary: string,
    options: Record<string, OptionSpec> = {},
    positionals: string[] = [],
  ): Command => ({
    name,
    summary,
    synopsis: `${positionals.map((p) => `<${p}> `).join('')}[options]`,
    description: `${summary.charAt(0).toUpperCase()}${summary.slice(1)}. ${AGAINST}`,
    options: { ...options, ...CONTROL_OPTIONS },
    ...(positionals.length > 0 && { positionals: positionals.map((p) => `<${p}>`) }),
    load: async () => {
      const run = (await actions())[name]
      if (run === undefined) throw new Error(`no action for ${name}`)
      return { run }
    },
  })
}

const command = controlCommandsOf(async () => (await import('./control-actions.ts')).CONTROL_ACTIONS)
const control = (
  name: string,
  summary: string,
  positionals: string[] = [],
  extra: Record<string, OptionSpec> = {},
) => command(name, summary, extra, positionals)

/** One command per control operation (`cloudplane reset`, `cloudplane snapshot save` …). */
export const CONTROL_COMMANDS: Command[] = [
  control('reset', 'reset the state to right after the first start, or one account', [], {
    username: { value: '<name>', help: "reset only this user's account" },
  }),
  control('snapshot save', 'save the whole state under a name', ['name']),
  control('snapshot list', 'list the saved snapshots'),
  control('snapshot restore', 'restore a snapshot, atomically', ['name']),
  control('snapshot delete', 'delete a snapshot', ['name']),
  control('snapshot export', 'write a snapshot file to stdout', ['name']),
  control('snapshot import', 'import a snapshot file (- for stdin) under a name', ['name', 'file']),
  control('seed', 'load a seed file (JSON or YAML; - for stdin)', ['file']),
  control('clock show', 'show the virtual and real time'),
  control('clock advance', 'move the clock forward by a duration such as 24h or 10m', ['duration']),
  control('clock set', 'set the clock to an instant such as 2030-01-01T00:00:00', ['instant']),
  control('clock resume', 'go back to real time'),
  control('state dump', "print one account's whole state as JSON", ['username']),
]
