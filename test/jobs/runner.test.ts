import assert from 'node:assert/strict'
import { after, before, describe, it, mock } from 'node:test'
import { MemoryBlobStore } from '../../src/blobs/memory-blob-store.ts'
import { AdjustableClock, addSeconds, nowTimestamp } from '../../src/common/time.ts'
import { createDb, type Db } from '../../src/db/connect.ts'
import type { JobContext, JobHandlers } from '../../src/jobs/job-kinds.ts'
import { enqueueJob, findJobs } from '../../src/jobs/jobs.repository.ts'
import { JobRunner } from '../../src/jobs/runner.ts'
import { prepareDatabase } from '../../src/setup.ts'
import { createTestDatabase, type TestDatabase, testPostgresUrl } from '../helpers/dialects.ts'
import { signal } from '../helpers/signal.ts'

const silent = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  trace() {},
  fatal() {},
  child: () => silent,
  level: 'silent',
}

describe('job runner', () => {
  let database: TestDatabase
  let db: Db
  const clock = new AdjustableClock()

  before(async () => {
    database = await createTestDatabase()
    db = database.db
    await prepareDatabase(db, clock, { defaultAccount: false })
  })
  after(() => database.drop().finally(() => db.destroy()))

  const context = (on: Db = db): JobContext =>
    ({ db: on, blobs: new MemoryBlobStore(), clock, log: silent }) as unknown as JobContext

  /** Handlers under the `blob-delete` kind whose behaviour each test chooses. */
  const runnerWith = (handle: (key: string) => Promise<void>, on: Db = db, maxAttempts = 3) =>
    new JobRunner(context(on), {
      handlers: {
        'blob-delete': async (_c: JobContext, p: { key: string }) => handle(p.key),
      } as unknown as JobHandlers,
      maxAttempts,
    })

  const enqueue = (key: string, runAt = nowTimestamp(clock)) =>
    enqueueJob(db, { kind: 'blob-delete', payload: { key }, runAt, created: nowTimestamp(clock) })

  const clear = () => db.deleteFrom('jobs').execute()

  it('runs due jobs once, leaves future ones until the clock reaches them, and removes finished ones', async () => {
    await clear()
    const seen: string[] = []
    const runner = runnerWith(async (key) => {
      seen.push(key)
    })
    await enqueue('now-1')
    await enqueue('now-2')
    await enqueue('later', addSeconds(nowTimestamp(clock), 3600))
    assert.equal(await runner.runPendingJobs(), 2)
    assert.deepEqual(seen, ['now-1', 'now-2'])
    assert.equal(await runner.runPendingJobs(), 0)
    assert.deepEqual(
      (await findJobs(db)).map((j) => [j.status, JSON.parse(j.payload).key]),
      [['pending', 'later']],
    )
    clock.advance(3600 * 1000)
    assert.equal(await runner.runPendingJobs(), 1)
    assert.deepEqual(seen, ['now-1', 'now-2', 'later'])
    assert.deepEqual(await findJobs(db), [])
  })

  it('retries a failing job with a growing backoff, then leaves it failed with the error', async () => {
    await clear()
    let calls = 0
    const runner = runnerWith(async () => {
      calls++
      throw new Error(`boom ${calls}`)
    })
    await enqueue('flaky')
    assert.equal(await runner.runPendingJobs(), 1)
    let [job] = await findJobs(db)
    assert.equal(job?.status, 'pending')
    assert.equal(job?.attempts, 1)
    assert.equal(job?.last_error, 'boom 1')
    assert.ok((job?.run_at ?? '') > nowTimestamp(clock), 'retried later, not at once')
    assert.equal(await runner.runPendingJobs(), 0)
    clock.advance(3600 * 1000)
    await runner.runPendingJobs()
    clock.advance(3600 * 1000)
    await runner.runPendingJobs()
    ;[job] = await findJobs(db)
    assert.equal(calls, 3)
    assert.equal(job?.status, 'failed')
    assert.equal(job?.last_error, 'boom 3')
    clock.advance(3600 * 1000)
    assert.equal(await runner.runPendingJobs(), 0, 'a failed job stays failed')
  })

  it('takes over a job whose runner died once its lease has lapsed', async () => {
    await clear()
    await enqueue('orphan')
    // A runner claims the job and dies before finishing: the row stays `running` under its lease.
    await db
      .updateTable('jobs')
      .set({ status: 'running', locked_until: addSeconds(nowTimestamp(clock), 300), attempts: 1 })
      .execute()
    const seen: string[] = []
    const runner = runnerWith(async (key) => {
      seen.push(key)
    })
    assert.equal(await runner.runPendingJobs(), 0, 'still leased')
    clock.advance(301 * 1000)
    assert.equal(await runner.runPendingJobs(), 1)
    assert.deepEqual(seen, ['orphan'])
    assert.deepEqual(await findJobs(db), [])
  })

  it('waits for due work another runner holds, and for a holder that never finishes only so long', async () => {
    await clear()
    await enqueue('held')
    await enqueue('later', addSeconds(nowTimestamp(clock), 3600))
    const gate = signal()
    const claimed = signal()
    const holder = runnerWith(async () => {
      claimed.fire()
      await gate.fired
    })
    const held = holder.runPendingJobs()
    await claimed.fired
    const handlers = { 'blob-delete': async () => {} } as unknown as JobHandlers

    // Stuck: the waiting runner gives up after its bound and the work is still the holder's.
    const impatient = new JobRunner(context(), { handlers, holderWaitMs: 50 })
    assert.equal(await impatient.runAllDueJobs(), 0)
    assert.deepEqual(
      (await findJobs(db)).map((j) => [j.payload, j.status]),
      [
        ['{"key":"held"}', 'running'],
        ['{"key":"later"}', 'pending'],
      ],
    )

    // Finishing: the waiting runner answers once the held job is done; the future one stays.
    const waiting = new JobRunner(context(), { handlers }).runAllDueJobs()
    setTimeout(gate.fire, 100)
    assert.equal(await waiting, 0)
    assert.deepEqual(
      (await findJobs(db)).map((j) => j.payload),
      ['{"key":"later"}'],
    )
    await held
  })

  it('fails a job of an unknown kind at once', async () => {
    await clear()
    await db
      .insertInto('jobs')
      .values({
        kind: 'no-such-kind',
        payload: '{}',
        status: 'pending',
        run_at: nowTimestamp(clock),
        attempts: 0,
        created: nowTimestamp(clock),
      })
      .execute()
    await runnerWith(async () => {}).runPendingJobs()
    const [job] = await findJobs(db)
    assert.equal(job?.status, 'failed')
    assert.match(job?.last_error ?? '', /no handler for job kind "no-such-kind"/)
  })

  it('polls in the background until stopped', async () => {
    await clear()
    // The runner's timers are mocked: the test moves time on, so "no more polls" is proved
    // without waiting for something not to happen.
    mock.timers.enable({ apis: ['setTimeout'] })
    try {
      const seen: string[] = []
      let ran = () => {}
      const firstRun = new Promise<void>((resolve) => {
        ran = resolve
      })
      const runner = runnerWith(async (key) => {
        seen.push(key)
        ran()
      })
      let polls = 0
      runner.start(5, () => {
        polls++
        return true
      })
      await enqueue('background')
      mock.timers.tick(5)
      await firstRun
      await runner.stop()
      assert.deepEqual(seen, ['background'])
      const pollsWhenStopped = polls
      await enqueue('after-stop')
      // Fires every timer due within a minute, synchronously: a poll still scheduled would run now.
      mock.timers.tick(60_000)
      assert.equal(polls, pollsWhenStopped, 'a stopped runner polls no more')
      assert.deepEqual(seen, ['background'], 'a stopped runner runs nothing')
    } finally {
      mock.timers.reset()
    }
  })

  it('several runners on one PostgreSQL database never run the same job (SKIP LOCKED)', {
    skip: process.env.CLOUDPLANE_TEST_DIALECT !== 'postgres' && 'PostgreSQL run only',
  }, async () => {
    await clear()
    const others = [1, 2, 3].map(() =>
      createDb({ kind: 'postgres', location: testPostgresUrl(), schema: database.schema as string }),
    )
    try {
      for (let i = 0; i < 60; i++) await enqueue(`job-${i}`)
      const runs = new Map<string, number>()
      const runners = others.map((other) =>
        runnerWith(async (key) => {
          runs.set(key, (runs.get(key) ?? 0) + 1)
          await new Promise((r) => setTimeout(r, 2))
        }, other),
      )
      const counts = await Promise.all(runners.map((r) => r.runPendingJobs()))
      assert.equal(
        counts.reduce((a, b) => a + b, 0),
        60,
      )
      assert.equal(runs.size, 60)
      assert.ok(
        [...runs.values()].every((n) => n === 1),
        'each job ran exactly once',
      )
      assert.ok(counts.filter((n) => n > 0).length > 1, 'the work was shared')
      assert.deepEqual(await findJobs(db), [])
    } finally {
      await Promise.all(others.map((o) => o.destroy()))
    }
  })
})
