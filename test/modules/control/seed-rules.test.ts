import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useControlApp } from './control-app.ts'

/** A seed goes through the API's own rules: what the API refuses, a seed is refused with. */
describe('seed documents the API rules refuse', () => {
  const api = useControlApp()
  const owner = (username: string, email = `${username}@example.com`) => ({ users: [{ username, email }] })

  it('a username or an email the API would refuse', async () => {
    for (const [account, field] of [
      [owner('bad name--x'), 'accounts[0].users[0].username'],
      [owner('okname', 'not-an-email'), 'accounts[0].users[0].email'],
    ] as const) {
      const res = await api.admin('POST', '/seed', { accounts: [account] })
      assert.equal(res.status, 400, JSON.stringify(res.body))
      assert.ok(
        res.body.errors.some((e: { field?: string }) => e.field === field),
        JSON.stringify(res.body),
      )
    }
  })

  it('an image in a region that does not exist, or larger than is stored', async () => {
    for (const [image, field] of [
      [{ label: 'x', region: 'mars-1' }, 'accounts[0].images[0].region'],
      [{ label: 'x', size: 2 ** 31 }, 'accounts[0].images[0].size'],
    ] as const) {
      const res = await api.admin('POST', '/seed', { accounts: [{ ...owner('imgowner'), images: [image] }] })
      assert.equal(res.status, 400, JSON.stringify(res.body))
      assert.ok(
        res.body.errors.some((e: { field?: string }) => e.field === field),
        JSON.stringify(res.body),
      )
    }
    const fine = await api.admin('POST', '/seed', {
      accounts: [{ ...owner('imgowner'), images: [{ label: 'x', region: 'us-iad', size: 2 ** 31 - 1 }] }],
    })
    assert.equal(fine.status, 200, JSON.stringify(fine.body))
  })
})
