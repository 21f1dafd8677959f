import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ensureBaseline } from '../../../src/modules/control/state.service.ts'
import { bootstrapHeaders, bootstrapOwner, newAccount, useControlApp } from './control-app.ts'

const TOKEN_A = 'a1'.repeat(32)
const TOKEN_B = 'b2'.repeat(32)

/** A reset of one account returns it, and only it, to where it started. */
describe('a reset of one account', () => {
  const api = useControlApp()

  it('after a whole reset, an account that reuses a seeded account id is not reset to the old seed', async () => {
    const seeded = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [{ username: 'old-seeded', email: 'o@example.com', tokens: [{ token: TOKEN_A }] }],
          vpcs: [{ label: 'old-net', region: 'us-iad', subnets: [{ label: 'w', ipv4: '10.9.0.0/24' }] }],
        },
      ],
    })
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body))
    const seededId = seeded.body.accounts[0].id
    assert.equal((await api.admin('POST', '/reset')).status, 200)

    // `cloudplane account create` after the reset: ids start over.
    const fresh = await newAccount(api, 'fresh-owner')
    assert.equal(fresh.user.account_id, seededId, 'precondition: the id is reused')
    const reset = await api.admin('POST', '/reset', { username: 'fresh-owner' })
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: fresh.headers })
    assert.equal(
      profile.status,
      200,
      `fresh-owner's own token must still work: ${JSON.stringify(profile.body)}`,
    )
    const ghost = await api.request({
      method: 'GET',
      url: '/v4/profile',
      headers: { authorization: `Bearer ${TOKEN_A}` },
    })
    assert.equal(ghost.status, 401, 'the old seeded user must not come back')
  })

  it("a reset of one account ends that account's pending work: a restored instance is not changed later", async () => {
    await api.admin('POST', '/reset')
    const seeded = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [{ username: 'jobs-owner', email: 'j@example.com', tokens: [{ token: TOKEN_B }] }],
          instances: [
            {
              label: 'web-1',
              region: 'us-iad',
              type: 'g6-nanode-1',
              image: 'compute/debian12',
              root_pass: 'Str0ng-Passw0rd!',
            },
          ],
        },
      ],
    })
    assert.equal(seeded.status, 200, JSON.stringify(seeded.body))
    const headers = { authorization: `Bearer ${TOKEN_B}` }
    const list = await api.request({ method: 'GET', url: '/v4/compute/instances', headers })
    const id = list.body.data[0].id
    const status = async () =>
      (await api.request({ method: 'GET', url: `/v4/compute/instances/${id}`, headers })).body.status
    await api.admin('POST', '/clock/advance', { by: '1m' })
    const before = await status()
    await api.admin('PUT', '/work-durations', { compute_shutdown: 30 })
    const shut = await api.request({ method: 'POST', url: `/v4/compute/instances/${id}/shutdown`, headers })
    assert.equal(shut.status, 200, JSON.stringify(shut.body))
    assert.equal(await status(), 'shutting_down')
    assert.equal((await api.admin('POST', '/reset', { username: 'jobs-owner' })).status, 200)
    assert.equal(await status(), before, 'back to the seeded status')
    await api.admin('POST', '/clock/advance', { by: '2m' })
    assert.equal(await status(), before, 'a shutdown asked before the reset must not land after it')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('an account in the server baseline gets back its VPCs with their subnets (rows owned through a parent, not an account_id column)', async () => {
    // The controls were switched on for a database that already had data: the first start with
    // them on records the baseline then.
    const made = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: bootstrapHeaders,
      payload: { label: 'pre-existing', region: 'us-iad', subnets: [{ label: 'web', ipv4: '10.0.1.0/24' }] },
    })
    assert.equal(made.status, 200, JSON.stringify(made.body))
    await api.db.deleteFrom('control_snapshots').where('name', '=', 'baseline:server').execute()
    await ensureBaseline(api.db)
    const before = (await api.request({ method: 'GET', url: '/v4/vpcs', headers: bootstrapHeaders })).body

    await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: bootstrapHeaders,
      payload: { label: 'later', region: 'us-iad' },
    })
    const { username } = await bootstrapOwner(api)
    const reset = await api.admin('POST', '/reset', { username })
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    const after = (await api.request({ method: 'GET', url: '/v4/vpcs', headers: bootstrapHeaders })).body
    assert.deepEqual(after, before)
  })
})
