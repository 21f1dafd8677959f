import { setPasswordByUsername } from '../modules/login/password.service.ts'
import { readPasswordFile } from '../modules/login/password-file.ts'
import { say, UsageError, type Values } from './command.ts'
import { withDatabase } from './database.ts'

/** `cloudplane user password`: sets a user's login password from a file. */
export async function run(values: Values): Promise<void> {
  const username = values.username
  const file = values['password-file']
  if (!username || !file) throw new UsageError('user password needs --username and --password-file')
  const read = readPasswordFile(file)
  if ('problem' in read) throw new UsageError(`--password-file: ${read.problem}`)
  const found = await withDatabase('user password', values, (db, clock) =>
    setPasswordByUsername(db, clock, { username, password: read.password }),
  )
  if (!found) throw new UsageError(`no user named "${username}"`)
  say(`set the password of user "${username}"`)
}
