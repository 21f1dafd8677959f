import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { deleteTogether, eventsAbout, ONE_WINNER } from '../../helpers/deletes-at-once.ts'
import { createAccount } from '../../helpers/factories.ts'
import { createOAuthClient } from './oauth-client-fixtures.ts'

/**
 * Changes of one OAuth client take turns (its row is locked): on PostgreSQL, deletes sent together
 * all answered 200, each with its own event, and a delete with updates deadlocked and retried.
 */
describe('OAuth clients: one client changed by several requests at once', () => {
  const api = useTestApp()

  it('deletes it once: one 200, the rest 404, one oauth_client_delete event', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < 4; round++) {
      const client = await createOAuthClient(api, owner, { label: `racy-${round}` })
      const url = `/v4/account/oauth-clients/${client.id}`
      assert.deepEqual(await deleteTogether(api, owner, url), ONE_WINNER)
      assert.equal(await eventsAbout(api, owner, 'oauth_client_delete', (e) => e.url === url), 1)
    }
  })

  it('answers updates sent with a delete 200 before it and 404 after it, never about a deleted client', async () => {
    const owner = await createAccount(api)
    for (let round = 0; round < 4; round++) {
      const client = await createOAuthClient(api, owner, { label: `mixed-${round}` })
      const url = `/v4/account/oauth-clients/${client.id}`
      const answers = await Promise.all([
        api.request({ method: 'DELETE', url, headers: owner.headers }),
        ...Array.from({ length: 5 }, (_, i) =>
          api.request({ method: 'PUT', url, headers: owner.headers, payload: { label: `renamed-${i}` } }),
        ),
      ])
      assert.equal(answers[0]?.status, 200)
      const updated = answers.slice(1).filter((a) => a.status === 200).length
      assert.ok(answers.slice(1).every((a) => a.status === 200 || a.status === 404))
      // Each update that answered 200 changed the client while it was there: one event each.
      assert.equal(await eventsAbout(api, owner, 'oauth_client_update', (e) => e.url === url), updated)
      assert.equal((await api.request({ method: 'GET', url, headers: owner.headers })).status, 404)
    }
  })
})
