import type { FastifyReply, FastifyRequest } from 'fastify'
import { randomBytes } from '../../common/random.ts'
import { addSeconds, nowTimestamp } from '../../common/time.ts'
import { hashTokenSecret } from '../auth/token-secret.ts'
import type { UserRow } from '../users/users.table.ts'
import { clearCookie, readCookie, SESSION_COOKIE, setCookie } from './cookies.ts'
import * as repo from './login.repository.ts'
import type { LoginSessionRow } from './login.tables.ts'

/** The password step must be followed by the code within 10 minutes; a signed-in browser lasts an hour. */
const TWO_FACTOR_STEP_SECONDS = 10 * 60
const SIGNED_IN_SECONDS = 60 * 60

export interface BrowserSession {
  row: LoginSessionRow
  user: UserRow
}

/** The browser's session, if its cookie names a live one. */
export async function currentSession(request: FastifyRequest): Promise<BrowserSession | undefined> {
  const secret = readCookie(request, SESSION_COOKIE)
  if (secret === undefined) return undefined
  const { db, clock } = request.server
  const row = await repo.findSession(db, hashTokenSecret(secret), nowTimestamp(clock))
  if (row === undefined) return undefined
  const user = await repo.findUserById(db, row.user_id)
  return user === undefined ? undefined : { row, user }
}

/**
 * Starts a new session (or moves to the next stage) under a new secret: whatever the browser held
 * before, including a session planted by someone else, is dropped (no session fixation).
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  stage: LoginSessionRow['stage'],
): Promise<void> {
  const { db, clock } = request.server
  await endSession(request, reply)
  const secret = randomBytes(32).toString('base64url')
  const now = nowTimestamp(clock)
  await repo.deleteExpiredSessions(db, now)
  await repo.insertSession(db, {
    secret_digest: hashTokenSecret(secret),
    user_id: userId,
    stage,
    created: now,
    expiry: addSeconds(now, stage === 'two_factor' ? TWO_FACTOR_STEP_SECONDS : SIGNED_IN_SECONDS),
  })
  setCookie(request, reply, SESSION_COOKIE, secret)
}

export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const secret = readCookie(request, SESSION_COOKIE)
  if (secret === undefined) return
  await repo.deleteSession(request.server.db, hashTokenSecret(secret))
  clearCookie(request, reply, SESSION_COOKIE)
}
