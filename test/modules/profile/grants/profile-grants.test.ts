import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../../helpers/app.ts'
import {
  bearer,
  createAccount,
  createToken,
  createUser,
  grantEntity,
  grantGlobal,
  type TestUser,
} from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'

describe('profile grants', () => {
  const api = useTestApp()

  const grants = (who: TestUser, headers = who.headers) =>
    api.request({ method: 'GET', url: '/v4/profile/grants', headers })

  /** A private image of the account, made through the public API (upload creates it at once). */
  const privateImage = async (owner: TestUser, label: string): Promise<number> => {
    const res = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label, region: 'us-iad' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return Number(String(res.body.image.id).replace('private/', ''))
  }

  it('answers 204 with no body for an unrestricted user', async () => {
    const owner = await createAccount(api)
    const res = await grants(owner)
    assert.equal(res.status, 204)
    assert.equal(res.raw.body, '')
    assert.equal(res.headers['x-accepted-oauth-scopes'], '*')
  })

  it('shows a restricted user their grants, leaving out entities they cannot access', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    const seen = await privateImage(owner, 'granted-image')
    await privateImage(owner, 'hidden-image')
    await grantEntity(api, member, 'image', seen, 'read_only')
    await grantGlobal(api, member, 'add_vpcs')
    const res = await grants(member)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(Object.keys(res.body), [
      'database',
      'domain',
      'image',
      'compute',
      'monitoring',
      'loadbalancer',
      'script',
      'volume',
      'vpc',
      'global',
    ])
    assert.deepEqual(res.body.image, [{ id: seen, label: 'granted-image', permissions: 'read_only' }])
    assert.deepEqual(res.body.vpc, [])
    assert.equal(res.body.global.add_vpcs, true)
    assert.equal(res.body.global.add_images, false)
  })

  it('works with any token, whatever its scopes', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    const narrow = await createToken(api, member.user.id, { scopes: 'images:read_only' })
    const res = await grants(member, bearer(narrow))
    assert.equal(res.status, 200)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/grants',
      scopes: [],
      success: 204,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/grants' }),
    },
  ])
})
