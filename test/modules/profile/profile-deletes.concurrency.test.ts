import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { trustDevice } from '../../../src/modules/profile/devices/devices.service.ts'
import { useTestApp } from '../../helpers/app.ts'
import { deleteTogether, eventsAbout, ONE_WINNER } from '../../helpers/deletes-at-once.ts'
import { createAccount } from '../../helpers/factories.ts'
import { createOauthToken } from './profile-helpers.ts'
import { KEYS } from './ssh-key-fixtures.ts'

/** Rounds per case: the race is lost only when the deletes overlap, which most rounds do. */
const ROUNDS = 4

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
      assert.equal(await eventsAbout(api, owner, 'token_delete', (e) => e.id === id), 1)
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
      assert.equal(await eventsAbout(api, owner, 'user_ssh_key_delete', (e) => e.id === id), 1)
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
