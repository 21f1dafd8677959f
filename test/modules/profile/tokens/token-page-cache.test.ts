import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createToken, createUser, type TestUser } from '../../../helpers/factories.ts'

/**
 * A token page is kept as sent while no token changed and none of the caller's expired since it
 * was rendered (common/rendered-page-cache.ts). Whatever changes, the next answer must be the one
 * the database gives now.
 */
describe('token pages kept as sent', () => {
  const api = useTestApp()

  const list = async (who: TestUser, filter?: object) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/profile/tokens',
      headers: { ...who.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.raw.body))
    return res
  }
  const labels = (res: { body: { data: Array<{ label: string }> } }) => res.body.data.map((t) => t.label)

  it('answers the same bytes again, and each change through the API at once', async () => {
    const owner = await createAccount(api)
    const first = await list(owner)
    assert.equal((await list(owner)).raw.body, first.raw.body)
    const created = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: owner.headers,
      payload: { label: 'second' },
    })
    assert.deepEqual(labels(await list(owner)), ['test', 'second'])
    await api.request({
      method: 'PUT',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
      payload: { label: 'renamed' },
    })
    assert.deepEqual(labels(await list(owner)), ['test', 'renamed'])
    await api.request({
      method: 'DELETE',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
    })
    assert.equal((await list(owner)).raw.body, first.raw.body)
  })

  it('shows a change made by another process or an SQL client on the next request', async () => {
    const owner = await createAccount(api)
    await list(owner)
    await sql`update tokens set label = 'from sql' where user_id = ${owner.user.id}`.execute(api.db)
    assert.deepEqual(labels(await list(owner)), ['from sql'])
    await createToken(api, owner.user.id, { label: 'inserted' })
    assert.deepEqual(labels(await list(owner)), ['from sql', 'inserted'])
  })

  it('drops a token once it expires, and shows it again when the clock goes back', async () => {
    const owner = await createAccount(api)
    await createToken(api, owner.user.id, { label: 'short', expiry: addSeconds(nowTimestamp(api.clock), 60) })
    assert.deepEqual(labels(await list(owner)), ['test', 'short'])
    api.clock.advance(61_000)
    try {
      const later = await list(owner)
      assert.deepEqual(labels(later), ['test'])
      assert.equal(later.body.results, 1)
    } finally {
      api.clock.advance(-61_000)
    }
    assert.deepEqual(labels(await list(owner)), ['test', 'short'])
  })

  it('keeps each caller’s pages and each filter’s apart', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    await createToken(api, owner.user.id, { label: 'owner-only' })
    assert.deepEqual(labels(await list(owner)), ['test', 'owner-only'])
    assert.deepEqual(labels(await list(member)), ['test'])
    assert.deepEqual(labels(await list(owner, { label: 'owner-only' })), ['owner-only'])
    assert.deepEqual(labels(await list(owner)), ['test', 'owner-only'])
  })
})
