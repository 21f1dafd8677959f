import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, describe, it } from 'node:test'
import { PUBLIC_IMAGES } from '../../src/catalogue/images.ts'
import { SHIPPED_REGIONS } from '../../src/catalogue/regions-file.ts'
import { SECURITY_QUESTIONS } from '../../src/catalogue/security-questions.ts'
import { AdjustableClock, nowTimestamp } from '../../src/common/time.ts'
import type { Db } from '../../src/db/connect.ts'
import { issueToken } from '../../src/modules/auth/issue-token.ts'
import { PUBLIC_SCRIPTS } from '../../src/modules/compute/scripts/scripts.catalogue.ts'
import { COMPUTE_TYPES } from '../../src/modules/compute/types/types.catalogue.ts'
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
      tags: '[]',
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

  it("puts back what the catalogue says, and keeps what is the database's own: status, counts, ids", async () => {
    const database = await createTestDatabase()
    databases.push(database)
    const { db } = database
    const clock = new AdjustableClock()
    await prepareDatabase(db, clock, {})
    const region = SHIPPED_REGIONS.regions[0]?.id as string
    const image = `compute/${PUBLIC_IMAGES[0]?.slug}`
    const type = COMPUTE_TYPES[0]?.id as string
    const question = SECURITY_QUESTIONS[0]?.id as number
    const script = PUBLIC_SCRIPTS[0]?.key as string
    const ids = async () => ({
      image: (await db.selectFrom('images').select('id').where('slug', '=', image).executeTakeFirstOrThrow())
        .id,
      script: (
        await db
          .selectFrom('scripts')
          .select('id')
          .where('catalogue_key', '=', script)
          .executeTakeFirstOrThrow()
      ).id,
    })
    const before = await ids()
    await db
      .updateTable('regions')
      .set({ label: 'edited', status: 'outage' })
      .where('id', '=', region)
      .execute()
    await db.updateTable('images').set({ label: 'edited' }).where('slug', '=', image).execute()
    await db.updateTable('compute_types').set({ label: 'edited' }).where('id', '=', type).execute()
    await db
      .updateTable('security_questions')
      .set({ question: 'edited' })
      .where('id', '=', question)
      .execute()
    await db
      .updateTable('scripts')
      .set({ label: 'edited', deployments_total: 12345 })
      .where('catalogue_key', '=', script)
      .execute()
    await db.deleteFrom('region_availability').execute()

    await prepareDatabase(db, clock, {})

    const regionRow = await db
      .selectFrom('regions')
      .selectAll()
      .where('id', '=', region)
      .executeTakeFirstOrThrow()
    assert.equal(regionRow.label, SHIPPED_REGIONS.regions[0]?.label)
    assert.equal(regionRow.status, 'outage', "a region's status is the operator's")
    const imageRow = await db
      .selectFrom('images')
      .select('label')
      .where('slug', '=', image)
      .executeTakeFirstOrThrow()
    assert.equal(imageRow.label, PUBLIC_IMAGES[0]?.label)
    const typeRow = await db
      .selectFrom('compute_types')
      .select('label')
      .where('id', '=', type)
      .executeTakeFirstOrThrow()
    assert.equal(typeRow.label, COMPUTE_TYPES[0]?.label)
    const questionRow = await db
      .selectFrom('security_questions')
      .select('question')
      .where('id', '=', question)
      .executeTakeFirstOrThrow()
    assert.equal(questionRow.question, SECURITY_QUESTIONS[0]?.question)
    const scriptRow = await db
      .selectFrom('scripts')
      .select(['label', 'deployments_total'])
      .where('catalogue_key', '=', script)
      .executeTakeFirstOrThrow()
    assert.equal(scriptRow.label, PUBLIC_SCRIPTS[0]?.label)
    assert.equal(Number(scriptRow.deployments_total), 12345, 'deployments gathered since are kept')
    assert.deepEqual(await ids(), before, 'catalogue rows keep their ids')
    const availability = await db.selectFrom('region_availability').select('region').execute()
    assert.ok(availability.length > 0, 'availability is loaded again')
  })

  it('a catalogue entry the database lacks is added, and one the catalogue dropped is removed', async () => {
    const database = await createTestDatabase()
    databases.push(database)
    const { db } = database
    const clock = new AdjustableClock()
    await prepareDatabase(db, clock, {})
    const image = `compute/${PUBLIC_IMAGES[1]?.slug}`
    const script = PUBLIC_SCRIPTS[1]?.key as string
    await db.deleteFrom('images').where('slug', '=', image).execute()
    await db.deleteFrom('scripts').where('catalogue_key', '=', script).execute()
    await db
      .deleteFrom('compute_types')
      .where('id', '=', COMPUTE_TYPES[1]?.id as string)
      .execute()
    await db.insertInto('security_questions').values({ id: 99_999, question: 'dropped?' }).execute()

    await prepareDatabase(db, clock, {})

    assert.ok(await db.selectFrom('images').select('id').where('slug', '=', image).executeTakeFirst())
    assert.ok(
      await db.selectFrom('scripts').select('id').where('catalogue_key', '=', script).executeTakeFirst(),
    )
    assert.ok(
      await db
        .selectFrom('compute_types')
        .select('id')
        .where('id', '=', COMPUTE_TYPES[1]?.id as string)
        .executeTakeFirst(),
    )
    assert.equal(
      await db.selectFrom('security_questions').select('id').where('id', '=', 99_999).executeTakeFirst(),
      undefined,
    )
    const counts = {
      images: await db
        .selectFrom('images')
        .select(db.fn.countAll().as('n'))
        .where('is_public', '=', true)
        .executeTakeFirstOrThrow(),
      types: await db.selectFrom('compute_types').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    }
    assert.equal(Number(counts.images.n), PUBLIC_IMAGES.length)
    assert.equal(Number(counts.types.n), COMPUTE_TYPES.length)
  })
})
