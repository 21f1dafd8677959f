import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createInstance } from '../helpers/api-fixtures.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { apiErrors, clientFunction as call, connectClient } from './client.ts'

/** The official client `@linode/api-v4` against cloudplane: the account and its transfer pool. */
describe('compatibility: @linode/api-v4 (account)', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('reads and changes the account', async () => {
    const account = await call('getAccountInfo')()
    assert.equal(account.euuid.length, 36)
    assert.equal(account.balance, 0)
    const changed = await call('updateAccountInfo')({ company: 'Compat Co', zip: '75001', country: 'FR' })
    assert.equal(changed.company, 'Compat Co')
    assert.equal((await call('getAccountInfo')()).zip, '75001')
    assert.deepEqual(await apiErrors(call('updateAccountInfo')({ email: 'nobody' })), [
      { reason: 'Must be a valid email address', field: 'email' },
    ])
  })

  it("reads the transfer pool of the account's instances", async () => {
    await createInstance(api, owner, { type: 'g6-nanode-1' })
    const transfer = await call('getNetworkUtilization')()
    assert.ok(transfer.quota > 0)
    assert.equal(transfer.used, 0)
    assert.equal(transfer.billable, 0)
    assert.deepEqual(
      transfer.region_transfers.map((r: { id: string }) => r.id),
      ['us-iad'],
    )
  })
})
