import { SETTINGS, type SettingFlag } from '../settings.ts'
import { type Command, DATABASE_FLAGS, type OptionSpec, settingOptions } from './command.ts'
import { CONTROL_COMMANDS } from './control-commands.ts'
import { FAULT_COMMANDS } from './fault-commands.ts'
import { JOURNAL_COMMANDS } from './journal-commands.ts'

/**
 * Every command: its name, options and help. Each implementation (one file per command) is loaded
 * only to run it, so `--help`, `--version` and usage mistakes answer at once.
 */

const databaseOptions = (): Record<string, OptionSpec> => settingOptions(DATABASE_FLAGS)

export const serve: Command = {
  name: 'serve',
  summary: 'run the API server (the default command)',
  synopsis: '[options]',
  description: `Runs the API server. Every option has an environment variable; the option wins.
stdout carries only JSON log lines; text for people goes to stderr: the first start's token, then,
once the API answers, one line "cloudplane: ready on http://HOST:PORT/v4" with the port actually
bound (also for --port 0). SIGTERM or SIGINT stops it; in-flight requests get 10 s to finish.`,
  options: settingOptions(Object.keys(SETTINGS) as SettingFlag[]),
  load: () => import('./serve.ts'),
}

export const migrate: Command = {
  name: 'migrate',
  summary: 'bring the database up to date and load the catalogues',
  synopsis: '[options]',
  description: `Applies the migrations the database lacks and reloads the catalogues (regions, images,
instance types, security questions), then says which migrations ran. Safe while servers run.`,
  options: databaseOptions(),
  load: () => import('./migrate.ts'),
}

export const accountCreate: Command = {
  name: 'account create',
  summary: 'create an account with one unrestricted user; prints its token',
  synopsis: '--username <name> --email <email> [options]',
  description: `Creates a separate account whose one user is unrestricted, and prints a personal access
token (scope *) for it, alone on stdout:
  TOKEN=$(cloudplane account create --username ci-1 --email ci@example.com)`,
  options: {
    username: {
      value: '<name>',
      help: 'the new user: 3-32 letters, digits, dashes or underscores (required)',
    },
    email: { value: '<email>', help: "the user's email address (required)" },
    'password-file': { value: '<file>', help: "the user's login password: the file's first line" },
    ...databaseOptions(),
  },
  load: () => import('./account-create.ts'),
}

export const userPassword: Command = {
  name: 'user password',
  summary: "set a user's login password from a file",
  synopsis: '--username <name> --password-file <file> [options]',
  description: `Sets the password the user signs in with on the login pages (OAuth apps). The file's first
line is the password (8-128 characters); it is stored as an scrypt hash and never printed.`,
  options: {
    username: { value: '<name>', help: 'the user (required)' },
    'password-file': { value: '<file>', help: 'a file whose first line is the password (required)' },
    ...databaseOptions(),
  },
  load: () => import('./user-password.ts'),
}

export const accountLimits: Command = {
  name: 'account limits',
  summary: "show or change an account's limits",
  synopsis: '--username <name> [--vpcs-per-region <n>|default] [--instances <n>|default] [options]',
  description: `Prints the limits of a user's account ("vpcs-per-region <n>" and "instances <n>" on stdout),
after changing them when asked: --vpcs-per-region 100 raises the VPC quota per region, --instances 500
the number of compute instances; "default" restores either.`,
  options: {
    username: { value: '<name>', help: 'a user of the account (required)' },
    'vpcs-per-region': { value: '<n>|default', help: 'VPCs allowed per region: 0 to 999999, or default' },
    instances: { value: '<n>|default', help: 'compute instances allowed: 0 to 999999, or default' },
    ...databaseOptions(),
  },
  load: () => import('./account-limits.ts'),
}

export const tokenCreate: Command = {
  name: 'token create',
  summary: 'issue a personal access token for any user; prints it',
  synopsis: '--username <name> [--scopes "<scopes>"] [--expiry <date-time>] [--label <label>] [options]',
  description: 'Issues a personal access token for a user and prints it alone on stdout.',
  options: {
    username: { value: '<name>', help: 'the user the token acts as (required)' },
    // The first releases spelled it --user; kept so that existing scripts still work.
    user: { value: '<name>', help: 'old spelling of --username', hidden: true },
    scopes: {
      value: '"<scopes>"',
      help: 'space-separated scopes, e.g. "vpc:read_write events:read_only" [*]',
    },
    expiry: { value: '<date-time>', help: 'when it stops working, e.g. 2030-01-01T00:00:00 [never]' },
    label: { value: '<label>', help: 'its label, 1-100 characters [cli]' },
    ...databaseOptions(),
  },
  load: () => import('./token-create.ts'),
}

export const regionStatus: Command = {
  name: 'region status',
  summary: 'mark a region outage, or ok again',
  synopsis: '<region-id> outage|ok [options]',
  description: 'Sets the status of a region; every server on the database shows it on its next request.',
  options: databaseOptions(),
  positionals: ['<region-id>', 'outage or ok'],
  load: () => import('./region-status.ts'),
}

export const COMMANDS: Command[] = [
  serve,
  migrate,
  accountCreate,
  accountLimits,
  tokenCreate,
  userPassword,
  regionStatus,
  ...CONTROL_COMMANDS,
  ...JOURNAL_COMMANDS,
  ...FAULT_COMMANDS,
]
