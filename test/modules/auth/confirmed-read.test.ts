import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { bearer, createAccount, createToken, type TestUser } from '../../helpers/factories.ts'

/**
 * A VPC read confirms its caller in its own statement (modules/auth/confirmed-read.ts): on
 * PostgreSQL a cached token is let in without the counter read, so these hold that every change
 * to the credentials still shows on the very next read, and that the answers are the ones the
 * usual authentication gives.
 */
describe('reads that confirm their caller in their own statement', () => {
  const api = useTestApp()
  let owner: TestUser
  let vpcId: number

  before(async () => {
    owner = await createAccount(api)
    const created = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: { label: 'confirmed', region: 'us-iad', subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] },
    })
    assert.equal(created.status, 200)
    vpcId = created.body.id
  })

  const read = (headers: Record<string, string>, id = vpcId) =>
    api.request({ method: 'GET', url: `/v4/vpcs/${id}`, headers })

  /** Reads twice, so the token is in the cache (and the second read took the cached way). */
  const warm = async (headers: Record<string, string>, id = vpcId) => {
    assert.equal((await read(headers, id)).status, 200)
    const second = await read(headers, id)
    assert.equal(second.status, 200)
    return second
  }

  const assertInvalidToken = (res: Awaited<ReturnType<typeof read>>) => {
    assert.equal(res.status, 401)
    assert.deepEqual(res.body, { errors: [{ reason: 'Invalid Token' }] })
    assert.equal(res.headers['x-oauth-scopes'], 'unknown')
    assert.equal(res.headers['x-customer-uuid'], undefined)
  }

  it('a token deleted in the database is refused by the next read', async () => {
    const token = await createToken(api, owner.user.id)
    await warm(bearer(token))
    await api.db
      .deleteFrom('tokens')
      .where('user_id', '=', owner.user.id)
      .where('label', '=', 'test')
      .execute()
    assertInvalidToken(await read(bearer(token)))
    assertInvalidToken(await read(bearer(token)))
    owner = { ...owner, ...(await freshToken()) }
  })

  it('a token revoked through the API is refused by the next read, a missing VPC included', async () => {
    const token = await createToken(api, owner.user.id, { label: 'to-revoke' })
    await warm(bearer(token))
    assert.equal((await read(bearer(token), vpcId + 1000)).status, 404)
    const list = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
    const id = list.body.data.find((t: { label: string }) => t.label === 'to-revoke').id
    const revoked = await api.request({
      method: 'DELETE',
      url: `/v4/profile/tokens/${id}`,
      headers: owner.headers,
    })
    assert.equal(revoked.status, 200)
    assertInvalidToken(await read(bearer(token)))
    assertInvalidToken(await read(bearer(token), vpcId + 1000))
  })

  it('another credentials change leaves the answer as it was, headers included', async () => {
    const before = await warm(owner.headers)
    await createToken(api, owner.user.id, { label: 'unrelated' })
    const after = await read(owner.headers)
    assert.equal(after.status, 200)
    assert.equal(after.raw.body, before.raw.body)
    for (const name of ['x-oauth-scopes', 'x-customer-uuid', 'x-accepted-oauth-scopes', 'content-type']) {
      assert.equal(after.headers[name], before.headers[name], name)
    }
  })

  it('a user made restricted in the database is refused the VPC at once (no grant on it)', async () => {
    const member = await createAccount(api)
    const vpc = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: member.headers,
      payload: { label: 'member-vpc', region: 'us-iad' },
    })
    await warm(member.headers, vpc.body.id)
    await api.db.updateTable('users').set({ restricted: true }).where('id', '=', member.user.id).execute()
    await api.db.deleteFrom('entity_grants').where('user_id', '=', member.user.id).execute()
    const refused = await read(member.headers, vpc.body.id)
    assert.equal(refused.status, 403)
    assert.deepEqual(refused.body, { errors: [{ reason: 'Unauthorized' }] })
  })

  it('an expired token is refused though its lookup is cached', async () => {
    const token = await createToken(api, owner.user.id, { expiry: '2099-01-01T00:00:00' })
    await warm(bearer(token))
    api.clock.set(new Date('2099-01-02T00:00:00Z'))
    try {
      assertInvalidToken(await read(bearer(token)))
    } finally {
      api.clock.reset()
    }
  })

  it('the VPC list: the same page after another change, a refusal from the next page on revoke', async () => {
    const token = await createToken(api, owner.user.id, { label: 'lister' })
    const list = (url = '/v4/vpcs') => api.request({ method: 'GET', url, headers: bearer(token) })
    assert.equal((await list()).status, 200)
    const before = await list()
    await createToken(api, owner.user.id, { label: 'unrelated' })
    const after = await list()
    assert.equal(after.status, 200)
    assert.equal(after.raw.body, before.raw.body)
    assert.equal((await list('/v4/vpcs?page=9')).raw.body, before.raw.body)
    await api.db
      .deleteFrom('tokens')
      .where('user_id', '=', owner.user.id)
      .where('label', '=', 'lister')
      .execute()
    assertInvalidToken(await list())
  })

  async function freshToken(): Promise<Pick<TestUser, 'token' | 'headers'>> {
    const token = await createToken(api, owner.user.id, { label: 'owner' })
    return { token, headers: bearer(token) }
  }
})
