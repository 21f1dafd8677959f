import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { trustDevice } from '../../../src/modules/profile/devices/devices.service.ts'
import { type TestApp, useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { createOauthToken } from './profile-helpers.ts'
import { KEYS } from './ssh-key-fixtures.ts'

/** Rounds per case: the race is lost only when the deletes overlap, which most rounds do. */
const ROUNDS = 4
const AT_ONCE = 6

/** The same DELETE sent AT_ONCE times together: its statuses, sorted. */
async function deleteTogether(api: TestApp, owner: TestUser, url: string): Promise<number[]> {
  const results = await Promise.all(
    Array.from({ length: AT_ONCE }, () => api.request({ method: 'DELETE', url, headers: owner.headers })),
  )
  return results.map((r) => r.status).sort()
}

const ONE_WINNER = [200, ...Array<number>(AT_ONCE - 1).fill(404)]

/** The events of `action` about entity `id`, as the account's event list shows them. */
async function eventsAbout(api: TestApp, owner: TestUser, action: string, id: number): Promise<number> {
  const res = await api.request({
    method: 'GET',
    url: '/v4/account/events?page_size=500',
    headers: { ...owner.headers, 'x-filter': JSON.stringify({ action }) },
  })
  assert.equal(res.status, 200)
  return res.body.data.filter((e: { entity: { id: number } }) => e.entity.id === id).length
}

/**
 * Deletes of one profile resource sent at once: one removes it, the others find it gone (404),
 * and one event says so. Each delete reads the row and then removes it; on PostgreSQL every
 * request that read it before the first commit went on to answer 200 (and record its event).
 */
describe('profile: one resource deleted by several requests at once', () => {
  const api = useTestApp()

  it('revokes a token once: one 200, the rest 404, one token_delete event', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const created = await api.request({
        method: 'POST',
        url: '/v4/profile/tokens',
        headers: owner.headers,
        payload: { label: `racy-${round}` },
      })
      assert.equal(created.status, 200)
      const id = created.body.id
      assert.deepEqual(await deleteTogether(api, owner, `/v4/profile/tokens/${id}`), ONE_WINNER)
      assert.equal(await eventsAbout(api, owner, 'token_delete', id), 1)
    }
  })

  it('deletes an SSH key once: one 200, the rest 404, one user_ssh_key_delete event', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const created = await api.request({
        method: 'POST',
        url: '/v4/profile/sshkeys',
        headers: owner.headers,
        payload: { label: `key-${round}`, ssh_key: KEYS.ed25519 },
      })
      assert.equal(created.status, 200, JSON.stringify(created.body))
      const id = created.body.id
      assert.deepEqual(await deleteTogether(api, owner, `/v4/profile/sshkeys/${id}`), ONE_WINNER)
      assert.equal(await eventsAbout(api, owner, 'user_ssh_key_delete', id), 1)
    }
  })

  it('revokes a trusted device once: one 200, the rest 404', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const { device } = await trustDevice(api.db, api.app.secretBox, api.clock, {
        userId: owner.user.id,
        userAgent: 'Firefox',
        remoteAddr: '192.0.2.1',
      })
      assert.deepEqual(await deleteTogether(api, owner, `/v4/profile/devices/${device.id}`), ONE_WINNER)
    }
  })

  it('revokes an authorized app once: one 200, the rest 404', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < ROUNDS; round++) {
      const { appId } = await createOauthToken(api, owner)
      assert.deepEqual(await deleteTogether(api, owner, `/v4/profile/apps/${appId}`), ONE_WINNER)
    }
  })
})
