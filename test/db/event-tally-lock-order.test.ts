import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { useTestApp } from '../helpers/app.ts'
import { testDialect, testPostgresUrl } from '../helpers/dialects.ts'
import { eventRow } from '../helpers/event-rows.ts'
import { createAccount } from '../helpers/factories.ts'
import { waitFor } from '../helpers/wait-for.ts'

const onPostgres = testDialect() === 'postgres'

/**
 * Every event write changes several range tally rows in one statement. Two writers that take
 * shared rows in different orders can deadlock, so each statement must take them in one order,
 * the key's, whatever the set of keys. Seen from outside: while another transaction holds one
 * tally row, a writer that needs it has already locked exactly the rows before it in key order.
 */
describe('range tally rows locked in key order on PostgreSQL', {
  skip: !onPostgres && 'PostgreSQL run only',
}, () => {
  const api = useTestApp()
  const clients: pg.Client[] = []
  let accountId: number
  let keys: string[]

  const connect = async () => {
    const client = new pg.Client({
      connectionString: testPostgresUrl(),
      options: `-c search_path=${api.schema}`,
    })
    await client.connect()
    clients.push(client)
    return client
  }

  const KEY = 'account_id, scale, bucket, action, entity_key, read'
  const whereKey = (key: string) => `(${KEY}) = ${key}`

  /** Events spread over many blocks of ids, minutes, hours and actions: about forty tally rows. */
  const batch = (offset: number) =>
    Array.from({ length: 10 }, (_, i) =>
      eventRow({
        id: 50_000_000 + i * 20_000 + offset,
        accountId,
        action: ['vpc_create', 'vpc_update', 'subnet_delete', 'image_upload'][i % 4] as string,
        entityType: i % 3 === 0 ? null : 'vpc',
        created: new Date(Date.UTC(2026, 0, 1 + i, i, i * 7, offset)).toISOString(),
      }),
    )
  const insertBatch = (offset: number) => api.db.insertInto('events').values(batch(offset)).compile()
  const deleteBatch = (offset: number) =>
    api.db
      .deleteFrom('events')
      .where(
        'id',
        'in',
        batch(offset).map((e) => e.id as number),
      )
      .compile()

  before(async () => {
    accountId = (await createAccount(api)).accountId
    // The first batch makes the tally rows; later batches fall in the same rows.
    await api.db.insertInto('events').values(batch(0)).execute()
    const owner = await connect()
    const { rows } = await owner.query<{ key: string }>(
      `select format('(%s, %L, %s, %L, %L, %L::boolean)', ${KEY}) as key from event_range_tallies
        where account_id = $1 order by ${KEY}`,
      [accountId],
    )
    keys = rows.map((r) => r.key)
    assert.ok(keys.length >= 30, `expected many tally rows, got ${keys.length}`)
  })
  after(async () => {
    for (const client of clients) await client.end().catch(() => {})
  })

  /** Which of `keys` but `held` another transaction cannot lock at once. */
  const lockedKeys = async (probe: pg.Client, held: string) => {
    const locked: string[] = []
    for (const key of keys.filter((k) => k !== held)) {
      try {
        await probe.query(`select 1 from event_range_tallies where ${whereKey(key)} for update nowait`)
      } catch (error) {
        if ((error as { code?: string }).code !== '55P03') throw error
        locked.push(key)
      }
    }
    return locked
  }

  /**
   * Holds the tally row at `held` while `write` runs in another transaction, and returns the rows
   * the writer has locked once it waits for that one.
   */
  const lockedWhileWaitingOn = async (held: string, write: pg.QueryConfig) => {
    const [holder, writer, probe] = [await connect(), await connect(), await connect()]
    await holder.query('begin')
    await holder.query(`select 1 from event_range_tallies where ${whereKey(held)} for update`)
    const writerPid = (await writer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid
    await writer.query('begin')
    const writing = writer.query(write)
    try {
      await waitFor(
        async () => {
          const { rows } = await probe.query('select 1 from pg_locks where pid = $1 and not granted', [
            writerPid,
          ])
          return rows.length > 0
        },
        { message: 'the writer to wait for the held row' },
      )
      return await lockedKeys(probe, held)
    } finally {
      await holder.query('rollback')
      await writing
      await writer.query('rollback')
    }
  }

  const cases = [
    { name: 'an insert', write: () => insertBatch(1), ready: async () => {} },
    {
      name: 'a delete',
      write: () => deleteBatch(2),
      ready: () =>
        api.db
          .insertInto('events')
          .values(batch(2))
          .onConflict((c) => c.column('id').doNothing())
          .execute(),
    },
  ]

  for (const { name, write, ready } of cases) {
    it(`${name} waiting on the last row in key order holds every row before it`, async () => {
      await ready()
      const { sql, parameters } = write()
      const last = keys.at(-1) as string
      const locked = await lockedWhileWaitingOn(last, { text: sql, values: [...parameters] })
      assert.deepEqual(locked, keys.slice(0, -1))
    })

    it(`${name} waiting on the first row in key order holds no other`, async () => {
      await ready()
      const { sql, parameters } = write()
      const first = keys[0] as string
      const locked = await lockedWhileWaitingOn(first, { text: sql, values: [...parameters] })
      assert.deepEqual(locked, [])
    })
  }
})
