#!/usr/bin/env node
import { parseArgs } from 'node:util'
import closeWithGrace from 'close-with-grace'
import { AdjustableClock, nowTimestamp, parseTimestamp } from './common/time.ts'
import { CONFIG_FLAGS, ConfigError, loadConfig } from './config.ts'
import { inTransaction } from './db/transaction.ts'
import { createAccountWithOwner } from './modules/accounts/accounts.service.ts'
import { issueToken } from './modules/auth/issue-token.ts'
import { formatScopes, parseScopes } from './modules/auth/scopes.ts'
import { setRegionStatus } from './modules/regions/regions.repository.ts'
import { findUserByUsername } from './modules/users/users.repository.ts'
import { setVpcsPerRegion, vpcsPerRegion } from './modules/vpcs/vpc-limits.repository.ts'
import { openDatabase, startServer } from './server.ts'
import { prepareDatabase } from './setup.ts'

const settings = Object.entries(CONFIG_FLAGS)
  .map(([flag, env]) => `  --${flag.padEnd(20)} ${env}`)
  .join('\n')

const USAGE = `usage:
  cloudplane serve [flags]
  cloudplane migrate
  cloudplane account create --username <name> --email <email>
  cloudplane account limits --username <name> [--vpcs-per-region <n>|default]
  cloudplane token create --user <username> [--scopes "<scopes>"] [--expiry <date-time>] [--label <label>]
  cloudplane region status <region-id> outage|ok

Settings come from the environment; serve's flags override them:
${settings}
account and token create print the new token alone on stdout, so scripts can capture it.`

class UsageError extends Error {}

function fail(message: string, code: number): never {
  process.stderr.write(`cloudplane: ${message}\n`)
  process.exit(code)
}

async function serve(args: string[]): Promise<void> {
  const options = Object.fromEntries(Object.keys(CONFIG_FLAGS).map((f) => [f, { type: 'string' as const }]))
  const { values } = parseArgs({ args, options, strict: true })
  const config = loadConfig(process.env, values as Record<string, string>)
  const app = await startServer(config)
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error')
    await app.close()
  })
}

/** Commands that work on the configured database directly (also while a server runs on it). */
async function withDatabase<T>(
  work: (db: ReturnType<typeof openDatabase>, clock: AdjustableClock) => Promise<T>,
) {
  const config = loadConfig()
  const db = openDatabase(config)
  const clock = new AdjustableClock()
  try {
    await prepareDatabase(db, clock, { defaultAccount: false, catalogue: { regions: config.regions } })
    return await work(db, clock)
  } finally {
    await db.destroy()
  }
}

async function migrate(): Promise<void> {
  await withDatabase(async () => {
    process.stderr.write('cloudplane: database is up to date\n')
  })
}

async function accountCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { username: { type: 'string' }, email: { type: 'string' } } })
  if (!values.username || !values.email) throw new UsageError('account create needs --username and --email')
  const { username, email } = values
  if (!/^(?!.*[-_]{2})[A-Za-z0-9][A-Za-z0-9_-]{1,30}[A-Za-z0-9]$/.test(username)) {
    throw new UsageError('--username must be 3-32 letters, digits, dashes or underscores')
  }
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError('--email must be an email address')
  const secret = await withDatabase((db, clock) =>
    inTransaction(db, async (trx) => {
      const { user } = await createAccountWithOwner(trx, clock, { username, email })
      const issued = await issueToken(trx, {
        userId: user.id,
        label: 'cli',
        scopes: '*',
        created: nowTimestamp(clock),
        expiry: null,
      })
      return issued.secret
    }),
  )
  process.stderr.write(`cloudplane: created account with user "${username}"; its token (scope *):\n`)
  process.stdout.write(`${secret}\n`)
}

async function tokenCreate(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      user: { type: 'string' },
      scopes: { type: 'string', default: '*' },
      expiry: { type: 'string' },
      label: { type: 'string', default: 'cli' },
    },
  })
  if (!values.user) throw new UsageError('token create needs --user <username>')
  const scopes = parseScopes(values.scopes)
  if (scopes === undefined) throw new UsageError(`--scopes is not a valid scope list: "${values.scopes}"`)
  const label = values.label
  if (label.length < 1 || label.length > 100) throw new UsageError('--label must be 1-100 characters')
  const username = values.user
  const expiryText = values.expiry
  const secret = await withDatabase(async (db, clock) => {
    let expiry: string | null = null
    if (expiryText !== undefined) {
      expiry = parseTimestamp(expiryText) ?? null
      if (expiry === null) throw new UsageError('--expiry must be a date-time such as 2030-01-01T00:00:00')
      if (expiry <= nowTimestamp(clock)) throw new UsageError('--expiry must be in the future')
    }
    const user = await findUserByUsername(db, username)
    if (user === undefined) throw new UsageError(`no user named "${username}"`)
    const issued = await issueToken(db, {
      userId: user.id,
      label,
      scopes: formatScopes(scopes),
      created: nowTimestamp(clock),
      expiry,
    })
    return issued.secret
  })
  process.stdout.write(`${secret}\n`)
}

/** Marks a region `outage` (or `ok` again); every server process sees it on its next request. */
async function regionStatus(args: string[]): Promise<void> {
  const [id, status, ...extra] = args
  if (id === undefined || (status !== 'outage' && status !== 'ok') || extra.length > 0) {
    throw new UsageError('region status needs <region-id> and outage or ok')
  }
  const found = await withDatabase((db) => setRegionStatus(db, id, status))
  if (!found) throw new UsageError(`no region "${id}" in the catalogue`)
  process.stderr.write(`cloudplane: region ${id} is now ${status}\n`)
}

/** Shows or raises an account's limits (the VPC quota per region); `default` restores the default. */
async function accountLimits(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { username: { type: 'string' }, 'vpcs-per-region': { type: 'string' } },
  })
  if (!values.username) throw new UsageError('account limits needs --username <name>')
  const username = values.username
  const text = values['vpcs-per-region']
  let limit: number | null | undefined
  if (text === 'default') limit = null
  else if (text !== undefined) {
    if (!/^[0-9]{1,6}$/.test(text)) throw new UsageError('--vpcs-per-region must be a number or "default"')
    limit = Number(text)
  }
  const current = await withDatabase(async (db) => {
    const user = await findUserByUsername(db, username)
    if (user === undefined) throw new UsageError(`no user named "${username}"`)
    if (limit !== undefined) await setVpcsPerRegion(db, user.account_id, limit)
    return vpcsPerRegion(db, user.account_id)
  })
  process.stdout.write(`vpcs-per-region ${current}\n`)
}

async function main(argv: string[]): Promise<void> {
  const [command, sub, ...rest] = argv
  if (command === 'serve' || command === undefined) return serve(command === undefined ? [] : argv.slice(1))
  if (command === 'migrate') return migrate()
  if (command === 'account' && sub === 'create') return accountCreate(rest)
  if (command === 'account' && sub === 'limits') return accountLimits(rest)
  if (command === 'token' && sub === 'create') return tokenCreate(rest)
  if (command === 'region' && sub === 'status') return regionStatus(rest)
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  throw new UsageError(`unknown command "${argv.join(' ')}"\n${USAGE}`)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) fail(error.message, 2)
  const e = error as NodeJS.ErrnoException
  if (e?.code === 'EADDRINUSE') fail(`cannot listen: address in use (${e.message})`, 1)
  if (e?.code === 'ECONNREFUSED') fail(`cannot reach the database: ${e.message}`, 1)
  fail(e instanceof Error ? e.message : String(error), 1)
})
