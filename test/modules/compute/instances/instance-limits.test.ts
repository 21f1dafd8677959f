import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { setInstancesPerAccount } from '../../../../src/modules/compute/instances/instance-limits.repository.ts'
import { createInstance } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'

describe('what one account can take from a region', () => {
  const api = useTestApp()

  const remove = (owner: TestUser, id: number) =>
    api.request({ method: 'DELETE', url: `/v4/compute/instances/${id}`, headers: owner.headers })

  it('a deleted instance gives its public addresses back to the region', async () => {
    const owner = await createAccount(api)
    const first = await createInstance(api, owner, { region: 'us-ord' })
    assert.equal((await remove(owner, first.id)).status, 200)
    const other = await createAccount(api)
    const second = await createInstance(api, other, { region: 'us-ord' })
    assert.deepEqual(second.ipv4, first.ipv4)
    assert.equal(second.ipv6, first.ipv6)
    const third = await createInstance(api, other, { region: 'us-ord' })
    assert.notDeepEqual(third.ipv4, second.ipv4, 'a freed address is handed out once')
  })

  it('creates stop at the account limit with the real answer, and go on after a delete', async () => {
    const owner = await createAccount(api)
    await setInstancesPerAccount(api.db, owner.accountId, 2)
    const kept = await createInstance(api, owner)
    await createInstance(api, owner)
    const refused = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: { type: 'g6-nanode-1', region: 'us-iad' },
    })
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [{ reason: 'Account Limit reached. Please open a support ticket.' }],
    })
    assert.equal((await remove(owner, kept.id)).status, 200)
    await createInstance(api, owner)
  })

  it('racing creates cannot pass the limit together', async () => {
    const owner = await createAccount(api)
    await setInstancesPerAccount(api.db, owner.accountId, 3)
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.request({
          method: 'POST',
          url: '/v4/compute/instances',
          headers: owner.headers,
          payload: { type: 'g6-nanode-1', region: 'us-iad', label: `race-${i}` },
        }),
      ),
    )
    assert.deepEqual(attempts.map((r) => r.status).sort(), [200, 200, 200, 400, 400, 400])
  })
})
