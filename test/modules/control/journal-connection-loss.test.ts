import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, it } from 'node:test'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import pino from 'pino'
import { AdjustableClock } from '../../../src/common/time.ts'
import { createDb } from '../../../src/db/connect.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { JournalWriter } from '../../../src/modules/control/journal/journal-writer.ts'
import { createTestDatabase, testDialect, testPostgresUrl } from '../../helpers/dialects.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { journalEntry } from './journal-entry.ts'

describe('the journal’s PostgreSQL connection, lost and opened again', {
  skip: testDialect() !== 'postgres' && 'PostgreSQL only: the journal’s own connection',
}, () => {
  it('writes the batches after the loss on a new connection, its named statements prepared again', async () => {
    const database = await createTestDatabase()
    // A name of this test's own, so that only its connections are ended (other test files share
    // the database).
    const name = `journal_loss_${randomBytes(4).toString('hex')}`
    const url = new URL(testPostgresUrl())
    url.searchParams.set('application_name', name)
    const db = createDb({ kind: 'postgres', location: url.toString(), schema: database.schema })
    const admin = new pg.Client({ connectionString: testPostgresUrl() })
    await admin.connect()
    const clock = new AdjustableClock()
    const writer = new JournalWriter(db, clock, pino({ level: 'silent' }) as unknown as FastifyBaseLogger)
    try {
      await migrateToLatest(db)
      const stored = async () =>
        (await db.selectFrom('control_journal_batches').select('rows').execute()).map((r) => r.rows).join()
      const now = clock.now().getTime()
      writer.push(journalEntry('/v4/before-the-loss', now, '{"ok":true}'))
      await writer.flush()
      assert.match(await stored(), /before-the-loss/)

      const ended = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where application_name = $1 and query like '%control_journal_batches%' and pid <> pg_backend_pid()`,
        [name],
      )
      assert.ok(
        ended.rowCount !== null && ended.rowCount >= 1,
        'the journal’s connection was found and ended',
      )

      // The batch sent as the loss is noticed may be lost with it; the ones after are written.
      let attempt = 0
      await waitFor(
        async () => {
          writer.push(journalEntry(`/v4/after-the-loss/${attempt++}`, now, '{"ok":true}'))
          await writer.flush()
          return /after-the-loss/.test(await stored())
        },
        { timeout: 10_000, interval: 50, message: 'a batch written after the loss' },
      )
      assert.ok(attempt <= 3, `written by the third batch after the loss (took ${attempt})`)
    } finally {
      await writer.close()
      await db.destroy()
      await admin.end()
      await database.drop()
    }
  })
})
