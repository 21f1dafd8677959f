import type { RequestContext } from '../../../common/context.ts'
import { notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { UserRow } from '../../users/users.table.ts'
import * as repo from './logins.repository.ts'
import type { Login } from './logins.schemas.ts'
import type { LoginRow } from './logins.table.ts'

/** The profile lists the successful logins of the last 90 days (API document, Limits). */
export const LOGIN_HISTORY_SECONDS = 90 * 24 * 3600

export function toLogin(row: LoginRow): Login {
  return {
    id: row.id,
    datetime: row.datetime,
    ip: row.ip,
    username: row.username,
    status: row.status as Login['status'],
    restricted: row.restricted,
  }
}

const since = (clock: Clock) => addSeconds(nowTimestamp(clock), -LOGIN_HISTORY_SECONDS)

export async function listLogins(ctx: RequestContext, query: ListQuery): Promise<PageResult<Login>> {
  const rows = await repo.listLogins(ctx.db, ctx.actor.user.id, since(ctx.clock), query)
  return mapPage(rows, toLogin)
}

export async function getLogin(ctx: RequestContext, { loginId }: { loginId: number }): Promise<Login> {
  const row = await repo.findLogin(ctx.db, ctx.actor.user.id, since(ctx.clock), loginId)
  if (row === undefined) throw notFound()
  return toLogin(row)
}

/** For the login service: records an attempt with the user's name and restriction as they are now. */
export async function recordLogin(
  db: Db,
  clock: Clock,
  input: { user: UserRow; ip: string; status: 'successful' | 'failed'; datetime?: string },
): Promise<Login> {
  const row = await inTransaction(db, (trx) =>
    repo.insertLogin(trx, {
      user_id: input.user.id,
      username: input.user.username,
      ip: input.ip,
      status: input.status,
      restricted: input.user.restricted,
      datetime: input.datetime ?? nowTimestamp(clock),
    }),
  )
  return toLogin(row)
}
