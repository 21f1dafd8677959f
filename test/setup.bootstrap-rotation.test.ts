import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { AdjustableClock } from '../src/common/time.ts'
import { hashTokenSecret } from '../src/modules/auth/token-secret.ts'
import { prepareDatabase } from '../src/setup.ts'
import { createTestDatabase, type TestDatabase } from './helpers/dialects.ts'

/**
 * README: "several processes started with the same value on one database agree on it; it is
 * created once, so revoking it lasts across restarts, and a new value is created as a new token".
 * During a rolling rotation (old processes configured with X, new ones with Y) an old process
 * that restarts must not bring back X after the operator revoked it.
 */
describe('bootstrap token rotated across processes', () => {
  let database: TestDatabase
  before(async () => {
    database = await createTestDatabase()
  })
  after(async () => {
    await database.db.destroy()
    await database.drop()
  })

  it('a revoked bootstrap token stays revoked when a process with the old value restarts after one with the new value', async () => {
    const { db } = database
    const clock = new AdjustableClock()
    const oldToken = randomBytes(32).toString('hex')
    const newToken = randomBytes(32).toString('hex')
    const exists = async (secret: string) =>
      (await db
        .selectFrom('tokens')
        .select('id')
        .where('token_hash', '=', hashTokenSecret(secret))
        .executeTakeFirst()) !== undefined
    // Process 1 (old configuration) starts, creating the database and X.
    await prepareDatabase(db, clock, { bootstrapToken: oldToken })
    assert.ok(await exists(oldToken))
    // The operator revokes X (DELETE /v4/profile/tokens/{id} does this) and rolls out Y.
    await db.deleteFrom('tokens').where('token_hash', '=', hashTokenSecret(oldToken)).execute()
    // Process 2 (new configuration) starts.
    await prepareDatabase(db, clock, { bootstrapToken: newToken })
    assert.ok(await exists(newToken))
    // Process 1, not yet rolled, restarts with its old configuration.
    await prepareDatabase(db, clock, { bootstrapToken: oldToken })
    assert.equal(await exists(oldToken), false, 'the revoked bootstrap token came back')
  })
})
