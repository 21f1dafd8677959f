import type { Generated, Selectable } from 'kysely'

export type JobStatus = 'pending' | 'running' | 'failed'

/**
 * Background work, kept in the database so it survives restarts and is shared by every API
 * process. A job that finishes is deleted; one that keeps failing stays as `failed` for an operator.
 */
export interface JobTable {
  id: Generated<number>
  kind: string
  /** JSON object handed to the handler. */
  payload: string
  status: JobStatus
  /** Not before this time (app clock). */
  run_at: string
  attempts: number
  /** While `running`: the lease; past it, another runner may take the job over. */
  locked_until: string | null
  last_error: string | null
  created: string
}

export type JobRow = Selectable<JobTable>
