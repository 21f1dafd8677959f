import { setTimeout as sleep } from 'node:timers/promises'
import { addSeconds, nowTimestamp } from '../common/time.ts'
import type { JobContext, JobHandler, JobHandlers, JobKind } from './job-kinds.ts'
import { claimDueJobs, failJob, finishJob, hasDueJobs, retryJob } from './jobs.repository.ts'
import type { JobRow } from './jobs.table.ts'
import type { WorkKind } from './work-durations.ts'

export interface JobRunnerOptions {
  handlers: JobHandlers
  /** How long a claimed job is ours before another runner may take it over. */
  leaseSeconds?: number
  batchSize?: number
  /** Attempts before a job is left as `failed`. */
  maxAttempts?: number
  /** How long `runAllDueJobs` waits for due work that another runner holds. */
  holderWaitMs?: number
}

/**
 * Runs due jobs from the `jobs` table: claim a batch under a lease, run each handler, then delete
 * the job, or put it back with a backoff, or leave it `failed` after the last attempt. The server
 * polls with `start()`; tests call `runPendingJobs()` directly so they stay deterministic.
 */
export class JobRunner {
  readonly #context: JobContext
  readonly #handlers: JobHandlers
  readonly #leaseSeconds: number
  readonly #batchSize: number
  readonly #maxAttempts: number
  readonly #holderWaitMs: number
  #timer: NodeJS.Timeout | undefined
  #running: Promise<unknown> | undefined
  #stopped = true

  constructor(context: JobContext, options: JobRunnerOptions) {
    this.#context = context
    this.#handlers = options.handlers
    this.#leaseSeconds = options.leaseSeconds ?? 300
    this.#batchSize = options.batchSize ?? 10
    this.#maxAttempts = options.maxAttempts ?? 5
    this.#holderWaitMs = options.holderWaitMs ?? 10_000
  }

  /** Lets fault rules fail timed work (the emulator's controls install this). */
  useWorkFaults(workFails: (work: WorkKind) => Promise<boolean>): void {
    this.#context.workFails = workFails
  }

  /** Runs every job that is due now (including ones that become due meanwhile); returns how many ran. */
  async runPendingJobs(): Promise<number> {
    let count = 0
    for (;;) {
      const now = nowTimestamp(this.#context.clock)
      const jobs = await claimDueJobs(
        this.#context.db,
        now,
        addSeconds(now, this.#leaseSeconds),
        this.#batchSize,
      )
      if (jobs.length === 0) return count
      for (const job of jobs) await this.#run(job)
      count += jobs.length
    }
  }

  /**
   * Runs every job due now, then waits while due work is held by another runner: another
   * process's poller that saw the same clock move, or this process's own. So a clock move answers
   * only once what it made due has happened, whichever process ran it. A holder that never
   * finishes is waited for at most `holderWaitMs`; its lease then hands the work on.
   */
  async runAllDueJobs(): Promise<number> {
    const deadline = Date.now() + this.#holderWaitMs
    let count = 0
    for (;;) {
      count += await this.runPendingJobs()
      if (!(await hasDueJobs(this.#context.db, nowTimestamp(this.#context.clock)))) return count
      if (Date.now() >= deadline) {
        this.#context.log.warn('job runner: due work is still held by another runner')
        return count
      }
      await sleep(20)
    }
  }

  /** Polls every `intervalMs` while `when()` holds (the server: once the database is ready). */
  start(intervalMs: number, when: () => boolean = () => true): void {
    this.#stopped = false
    const tick = async () => {
      if (this.#stopped) return
      if (when()) {
        this.#running = this.runPendingJobs().catch((error: unknown) =>
          this.#context.log.error({ err: error }, 'job runner: polling failed'),
        )
        await this.#running
        this.#running = undefined
      }
      if (!this.#stopped) this.#timer = setTimeout(tick, intervalMs).unref()
    }
    this.#timer = setTimeout(tick, intervalMs).unref()
  }

  /** Stops polling and waits for the jobs in hand; unfinished work is picked up after its lease. */
  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer) clearTimeout(this.#timer)
    await this.#running
  }

  async #run(job: JobRow): Promise<void> {
    const { db, clock, log } = this.#context
    const handler = this.#handlers[job.kind as JobKind] as JobHandler<JobKind> | undefined
    try {
      if (handler === undefined) throw new Error(`no handler for job kind "${job.kind}"`)
      await handler(this.#context, JSON.parse(job.payload))
      await finishJob(db, job)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (handler === undefined || job.attempts >= this.#maxAttempts) {
        log.error({ err: error, job: job.id, kind: job.kind }, 'job failed for good')
        await failJob(db, job, message)
      } else {
        log.warn({ err: error, job: job.id, kind: job.kind, attempt: job.attempts }, 'job failed; will retry')
        const backoff = 10 * 2 ** (job.attempts - 1)
        await retryJob(db, job, addSeconds(nowTimestamp(clock), backoff), message)
      }
    }
  }
}
