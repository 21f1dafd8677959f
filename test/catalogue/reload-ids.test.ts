import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, describe, it } from 'node:test'
import { AdjustableClock, nowTimestamp } from '../../src/common/time.ts'
import type { Db } from '../../src/db/connect.ts'
import { issueToken } from '../../src/modules/auth/issue-token.ts'
import { prepareDatabase } from '../../src/setup.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/dialects.ts'

/** The id the next row of `images` gets: inserting one is the only measure both engines share. */
async function nextImageId(db: Db): Promise<number> {
  const row = await db
    .insertInto('images')
    .values({
      slug: `probe/${randomBytes(4).toString('hex')}`,
      account_id: null,
      label: 'probe',
      type: 'manual',
      status: 'available',
      size: 1,
      capabilities: '[]',
      is_public: false,
      deprecated: false,
      created: '2024-01-01T00:00:00',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db.deleteFrom('images').where('id', '=', row.id).execute()
  return row.id
}

describe('reloading the catalogues (every start and CLI call)', () => {
  const databases: TestDatabase[] = []
  after(async () => {
    for (const d of databases) {
      await d.db.destroy()
      await d.drop()
    }
  })

  it('draws no ids: images and tokens continue where they were', async () => {
    const database = await createTestDatabase()
    databases.push(database)
    const { db } = database
    const clock = new AdjustableClock()
    const bootstrapToken = randomBytes(32).toString('hex')
    await prepareDatabase(db, clock, { bootstrapToken })
    const imageId = await nextImageId(db)
    const maxToken = await db
      .selectFrom('tokens')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow()

    for (let start = 0; start < 3; start++) await prepareDatabase(db, clock, { bootstrapToken })

    assert.equal(await nextImageId(db), imageId + 1, 'private image ids do not jump by the catalogue size')
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow()
    const issued = await issueToken(db, {
      userId: user.id,
      label: 'probe',
      scopes: '*',
      created: nowTimestamp(clock),
      expiry: null,
    })
    assert.equal(issued.row.id, Number(maxToken.id) + 1, 'the bootstrap token is not re-inserted')
  })
})
