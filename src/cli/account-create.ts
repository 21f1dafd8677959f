import { Compile } from 'typebox/compile'
import { nowTimestamp } from '../common/time.ts'
import { inTransaction } from '../db/transaction.ts'
import { issueToken } from '../modules/auth/issue-token.ts'
import { setUserPassword } from '../modules/login/password.service.ts'
import { readPasswordFile } from '../modules/login/password-file.ts'
import { EmailSchema } from '../modules/users/users.schemas.ts'
import { createAccountWithOwner } from '../modules/users/users.service.ts'
import { say, UsageError, type Values } from './command.ts'
import { withDatabase } from './database.ts'

const USERNAME = /^(?!.*[-_]{2})[A-Za-z0-9][A-Za-z0-9_-]{1,30}[A-Za-z0-9]$/
/** The email the API takes (users, the profile, seed files), so the account's own profile saves. */
const isEmail = (email: string): boolean => Compile(EmailSchema).Check(email)

export async function run(values: Values): Promise<void> {
  const { username, email } = values
  if (!username || !email) throw new UsageError('account create needs --username and --email')
  if (!USERNAME.test(username))
    throw new UsageError('--username must be 3-32 letters, digits, dashes or underscores')
  if (!isEmail(email)) throw new UsageError('--email must be an email address of at most 128 characters')
  const passwordFile = values['password-file']
  const read = passwordFile === undefined ? undefined : readPasswordFile(passwordFile)
  if (read !== undefined && 'problem' in read) throw new UsageError(`--password-file: ${read.problem}`)
  const secret = await withDatabase('account create', values, (db, clock) =>
    inTransaction(db, async (trx) => {
      const { user } = await createAccountWithOwner(trx, clock, { username, email })
      if (read !== undefined) await setUserPassword(trx, clock, { userId: user.id, password: read.password })
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
  say(`created account with user "${username}"; its token (scope *):`)
  process.stdout.write(`${secret}\n`)
}
