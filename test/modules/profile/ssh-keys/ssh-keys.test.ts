import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type TestApp, useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import { withComment } from '../profile-helpers.ts'
import { KEYS } from '../ssh-key-fixtures.ts'

describe('profile SSH keys', () => {
  const api = useTestApp()

  const add = (who: TestUser, payload: object) =>
    api.request({ method: 'POST', url: '/v4/profile/sshkeys', headers: who.headers, payload })

  it('accepts every type the API lists, stored and returned exactly as sent', async () => {
    const owner = await createAccount(api)
    const sent = [
      KEYS.rsa,
      withComment(KEYS.dss, 'old box'),
      withComment(KEYS.ecdsa256, 'me@laptop'),
      KEYS.ecdsa384,
      KEYS.ecdsa521,
      withComment(KEYS.ed25519, 'a comment  with  spaces'),
      withComment(KEYS.skEcdsa, 'yubikey'),
      KEYS.skEd25519,
      // The API document's spellings of the FIDO types, without @openssh.com.
      KEYS.skEcdsa.replace('sk-ecdsa-sha2-nistp256@openssh.com', 'sk-ecdsa-sha2-nistp256'),
      KEYS.skEd25519.replace('sk-ssh-ed25519@openssh.com', 'sk-ssh-ed25519'),
      `${KEYS.ed25519}\n`,
    ]
    for (const [i, ssh_key] of sent.entries()) {
      const res = await add(owner, { label: `key-${i}`, ssh_key })
      assert.equal(res.status, 200, `${ssh_key.slice(0, 40)}: ${JSON.stringify(res.body)}`)
      assert.deepEqual(Object.keys(res.body), ['id', 'label', 'ssh_key', 'created'])
      assert.equal(res.body.ssh_key, ssh_key)
    }
    const list = await api.request({ method: 'GET', url: '/v4/profile/sshkeys', headers: owner.headers })
    assert.equal(list.body.results, sent.length)
    assert.deepEqual(
      list.body.data.map((k: { ssh_key: string }) => k.ssh_key),
      sent,
    )
  })

  it('views, relabels and deletes a key; the key text never changes', async () => {
    const owner = await createAccount(api)
    const created = await add(owner, { label: 'laptop', ssh_key: KEYS.ed25519 })
    const url = `/v4/profile/sshkeys/${created.body.id}`
    const view = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.deepEqual(view.body, created.body)
    const renamed = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { label: 'work laptop', ssh_key: KEYS.rsa },
    })
    assert.equal(renamed.status, 200)
    assert.deepEqual(renamed.body, { ...created.body, label: 'work laptop' })
    const removed = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(removed.status, 200)
    assert.deepEqual(removed.body, {})
    assert.equal((await api.request({ method: 'GET', url, headers: owner.headers })).status, 404)
  })

  it('allows an empty or missing label (0..64)', async () => {
    const owner = await createAccount(api)
    const missing = await add(owner, { ssh_key: KEYS.ed25519 })
    assert.equal(missing.status, 200)
    assert.equal(missing.body.label, '')
    const longest = await add(owner, { label: 'l'.repeat(64), ssh_key: KEYS.ed25519 })
    assert.equal(longest.status, 200)
  })

  it('keeps keys per user: another user neither lists nor reaches them', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    const created = await add(owner, { label: 'mine', ssh_key: KEYS.ed25519 })
    const list = await api.request({ method: 'GET', url: '/v4/profile/sshkeys', headers: member.headers })
    assert.deepEqual(list.body, { data: [], page: 1, pages: 1, results: 0 })
    const view = await api.request({
      method: 'GET',
      url: `/v4/profile/sshkeys/${created.body.id}`,
      headers: member.headers,
    })
    assert.equal(view.status, 404)
  })

  it('refuses X-Filter fields (none is filterable) and pages the list', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'GET',
      url: '/v4/profile/sshkeys',
      headers: { ...owner.headers, 'x-filter': '{"label":"x"}' },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Cannot filter on label', field: 'X-Filter' }] })
    for (let i = 0; i < 26; i++) await add(owner, { label: `k${i}`, ssh_key: KEYS.ed25519 })
    const page2 = await api.request({
      method: 'GET',
      url: '/v4/profile/sshkeys?page=2&page_size=25',
      headers: owner.headers,
    })
    assert.equal(page2.body.pages, 2)
    assert.equal(page2.body.data.length, 1)
    assert.equal(page2.body.data[0].label, 'k25')
  })

  it('records user_ssh_key_add, _update and _delete', async () => {
    const owner = await createAccount(api)
    const created = await add(owner, { label: 'evented', ssh_key: KEYS.ed25519 })
    const id = created.body.id
    const url = `/v4/profile/sshkeys/${id}`
    await api.request({ method: 'PUT', url, headers: owner.headers, payload: { label: 'renamed' } })
    await api.request({ method: 'DELETE', url, headers: owner.headers })
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ 'entity.type': 'user_ssh_key', '+order_by': 'id', '+order': 'asc' }),
      },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string; entity: { id: number; label: string; url: string } }) => [
        e.action,
        e.entity.id,
        e.entity.label,
        e.entity.url,
      ]),
      [
        ['user_ssh_key_add', id, 'evented', url],
        ['user_ssh_key_update', id, 'renamed', url],
        ['user_ssh_key_delete', id, 'renamed', url],
      ],
    )
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/sshkeys',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/sshkeys' }),
    },
    {
      method: 'GET',
      route: '/v4/profile/sshkeys/{id}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/sshkeys/${await ownKey(api, owner)}` }),
    },
    {
      method: 'POST',
      route: '/v4/profile/sshkeys',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({
        url: '/v4/profile/sshkeys',
        payload: { label: 'suite', ssh_key: KEYS.ed25519 },
      }),
    },
    {
      method: 'PUT',
      route: '/v4/profile/sshkeys/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/profile/sshkeys/${await ownKey(api, owner)}`,
        payload: { label: 'renamed' },
      }),
    },
    {
      method: 'DELETE',
      route: '/v4/profile/sshkeys/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/sshkeys/${await ownKey(api, owner)}` }),
    },
  ])
})

async function ownKey(api: TestApp, owner: TestUser): Promise<number> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/profile/sshkeys',
    headers: owner.headers,
    payload: { label: 'target', ssh_key: KEYS.ed25519 },
  })
  assert.equal(res.status, 200)
  return res.body.id
}
