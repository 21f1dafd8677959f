import type { Db } from '../db/connect.ts'
import { dialectOf } from '../db/dialects/dialect.ts'
import { inTransaction } from '../db/transaction.ts'
import type { JobKind, JobPayloads } from './job-kinds.ts'
import type { JobRow } from './jobs.table.ts'

/** Queues a job; call it on the transaction of the change that needs it, so both commit together. */
export async function enqueueJob<K extends JobKind>(
  db: Db,
  job: { kind: K; payload: JobPayloads[K]; runAt: string; created: string },
): Promise<number> {
  const row = await db
    .insertInto('jobs')
    .values({
      kind: job.kind,
      payload: JSON.stringify(job.payload),
      status: 'pending',
      run_at: job.runAt,
      attempts: 0,
      locked_until: null,
      last_error: null,
      created: job.created,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Takes up to `limit` due jobs (pending and due, or running with a lapsed lease) and leases them
 * until `leaseUntil`. On PostgreSQL, SKIP LOCKED lets several runners claim side by side without
 * waiting on each other or taking the same job; SQLite's write transaction is already exclusive.
 */
export async function claimDueJobs(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<JobRow[]> {
  return inTransaction(db, async (trx) => {
    let due = trx
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<=', now)]),
        ]),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(limit)
    if (dialectOf(trx) === 'postgres') due = due.forUpdate().skipLocked()
    const ids = (await due.execute()).map((r) => r.id)
    if (ids.length === 0) return []
    return trx
      .updateTable('jobs')
      .set((eb) => ({ status: 'running', locked_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', ids)
      .returningAll()
      .execute()
  })
}

/** Whether work due by `now` is still to run or running, whichever runner holds it. */
export async function hasDueJobs(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('status', 'in', ['pending', 'running'])
    .where('run_at', '<=', now)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Withdraws a job not yet started: the work it stood guard over ended normally. */
export async function cancelJob(db: Db, id: number): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', id).where('status', '=', 'pending').execute()
}

/** A finished job is removed, unless its lease was lost and another runner owns it now. */
export async function finishJob(db: Db, job: Pick<JobRow, 'id' | 'locked_until'>): Promise<void> {
  await db.deleteFrom('jobs').where('id', '=', job.id).where('locked_until', '=', leaseOf(job)).execute()
}

export async function retryJob(
  db: Db,
  job: Pick<JobRow, 'id' | 'locked_until'>,
  runAt: string,
  error: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'pending', run_at: runAt, locked_until: null, last_error: error })
    .where('id', '=', job.id)
    .where('locked_until', '=', leaseOf(job))
    .execute()
}

export async function failJob(
  db: Db,
  job: Pick<JobRow, 'id' | 'locked_until'>,
  error: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'failed', locked_until: null, last_error: error })
    .where('id', '=', job.id)
    .where('locked_until', '=', leaseOf(job))
    .execute()
}

export async function findJobs(db: Db, kind?: JobKind): Promise<JobRow[]> {
  let query = db.selectFrom('jobs').selectAll().orderBy('id')
  if (kind !== undefined) query = query.where('kind', '=', kind)
  return query.execute()
}

function leaseOf(job: Pick<JobRow, 'locked_until'>): string {
  if (job.locked_until === null) throw new Error('job is not leased')
  return job.locked_until
}
