import { badRequest } from '../../common/errors.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import * as repo from './login.repository.ts'
import { hashPassword, passwordProblem } from './passwords.ts'

/** Sets (or replaces) a user's password; the password itself is never stored nor logged. */
export async function setUserPassword(
  db: Db,
  clock: Clock,
  input: { userId: number; password: string },
): Promise<void> {
  const problem = passwordProblem(input.password)
  if (problem !== undefined) throw badRequest(problem, 'password')
  const hash = await hashPassword(input.password)
  await repo.savePasswordHash(db, input.userId, hash, nowTimestamp(clock))
}

/** The same, naming the user as the CLI does; undefined when there is no such user. */
export async function setPasswordByUsername(
  db: Db,
  clock: Clock,
  input: { username: string; password: string },
): Promise<boolean> {
  const user = await repo.findUserByUsername(db, input.username)
  if (user === undefined) return false
  await setUserPassword(db, clock, { userId: user.id, password: input.password })
  return true
}
