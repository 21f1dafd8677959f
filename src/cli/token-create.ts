import { nowTimestamp, parseTimestamp } from '../common/time.ts'
import { issueToken } from '../modules/auth/issue-token.ts'
import { formatScopes, parseScopes } from '../modules/auth/scopes.ts'
import { findUserByUsername } from '../modules/users/users.repository.ts'
import { UsageError, type Values } from './command.ts'
import { withDatabase } from './database.ts'

export async function run(values: Values): Promise<void> {
  const username = values.username ?? values.user
  if (!username) throw new UsageError('token create needs --username <name>')
  const scopesText = values.scopes ?? '*'
  const scopes = parseScopes(scopesText)
  if (scopes === undefined) throw new UsageError(`--scopes is not a valid scope list: "${scopesText}"`)
  const label = values.label ?? 'cli'
  if (label.length < 1 || label.length > 100) throw new UsageError('--label must be 1-100 characters')
  let expiry: string | null = null
  if (values.expiry !== undefined) {
    expiry = parseTimestamp(values.expiry) ?? null
    if (expiry === null) throw new UsageError('--expiry must be a date-time such as 2030-01-01T00:00:00')
  }
  const secret = await withDatabase('token create', values, async (db, clock) => {
    if (expiry !== null && expiry <= nowTimestamp(clock))
      throw new UsageError('--expiry must be in the future')
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
