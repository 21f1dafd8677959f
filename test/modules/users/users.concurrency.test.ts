import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser } from '../../helpers/factories.ts'
import { createVolume } from '../volumes/volume-fixtures.ts'

/** Rounds per case: the races are lost only when the requests overlap, which most rounds do. */
const ROUNDS = 10

/**
 * Users and their grants changed by requests at once: a change of a user and a change of their
 * grants take turns (the account's lock), and what a restricted user creates is granted to them
 * only while they exist. On PostgreSQL each of these answered 500 or kept a grant it should not.
 */
describe('account users: a user and their grants changed at once', () => {
  const api = useTestApp()

  it('answers a grants change sent with the user’s delete 200 before it and 404 after it', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const member = await createUser(api, owner)
      const url = `/v4/account/users/${member.user.username}`
      const [grants, deleted] = await Promise.all([
        api.request({
          method: 'PUT',
          url: `${url}/grants`,
          headers: owner.headers,
          payload: { global: { add_volumes: true } },
        }),
        api.request({ method: 'DELETE', url, headers: owner.headers }),
      ])
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body))
      assert.ok([200, 404].includes(grants.status), `${grants.status} ${JSON.stringify(grants.body)}`)
      assert.equal((await api.request({ method: 'GET', url, headers: owner.headers })).status, 404)
    }
  })

  it('keeps no grant a promotion removed, once the user is restricted again', async () => {
    const owner = await createAccount(api)
    const volume = await createVolume(api, owner)
    for (let round = 0; round < ROUNDS; round++) {
      const member = await createUser(api, owner)
      const url = `/v4/account/users/${member.user.username}`
      const [grants, promoted] = await Promise.all([
        api.request({
          method: 'PUT',
          url: `${url}/grants`,
          headers: owner.headers,
          payload: { global: { add_volumes: true }, volume: [{ id: volume.id, permissions: 'read_write' }] },
        }),
        api.request({ method: 'PUT', url, headers: owner.headers, payload: { restricted: false } }),
      ])
      assert.equal(promoted.status, 200, JSON.stringify(promoted.body))
      // Before the promotion it was granted; after it, refused: unrestricted users have no grants.
      assert.ok([200, 400].includes(grants.status), `${grants.status} ${JSON.stringify(grants.body)}`)
      const demoted = await api.request({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { restricted: true },
      })
      assert.equal(demoted.status, 200, JSON.stringify(demoted.body))
      const held = await api.request({ method: 'GET', url: `${url}/grants`, headers: owner.headers })
      assert.equal(held.body.volume.find((g: { id: number }) => g.id === volume.id)?.permissions, null)
      assert.equal(held.body.global.add_volumes, false)
      const view = await api.request({
        method: 'GET',
        url: `/v4/volumes/${volume.id}`,
        headers: member.headers,
      })
      assert.equal(view.status, 403, `round ${round}: a grant the promotion removed came back`)
    }
  })

  it('refuses what a restricted user creates while being deleted, leaving nothing of it', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const member = await createUser(api, owner)
      const granted = await api.request({
        method: 'PUT',
        url: `/v4/account/users/${member.user.username}/grants`,
        headers: owner.headers,
        payload: { global: { add_volumes: true } },
      })
      assert.equal(granted.status, 200)
      const [created, deleted] = await Promise.all([
        api.request({
          method: 'POST',
          url: '/v4/volumes',
          headers: member.headers,
          payload: { label: `racy-${round}`, region: 'us-iad' },
        }),
        api.request({
          method: 'DELETE',
          url: `/v4/account/users/${member.user.username}`,
          headers: owner.headers,
        }),
      ])
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body))
      if (created.status === 200) continue
      // Their token gone (401), or their grants gone before the create was checked (403).
      assert.ok(
        [
          JSON.stringify([401, { errors: [{ reason: 'Invalid Token' }] }]),
          JSON.stringify([403, { errors: [{ reason: 'Unauthorized' }] }]),
        ].includes(JSON.stringify([created.status, created.body])),
        `${created.status} ${JSON.stringify(created.body)}`,
      )
      // Nothing of the refused create is left.
      const volumes = await api.request({
        method: 'GET',
        url: '/v4/volumes',
        headers: { ...owner.headers, 'x-filter': JSON.stringify({ label: `racy-${round}` }) },
      })
      assert.equal(volumes.body.results, 0)
    }
  })
})
