/**
 * Seed files under the real service's naming (CLOUDPLANE_NAMING=linode). A seed "says what a
 * client would send" (seed.schema.ts) and is applied "as the seeded
 * account's owner would, so the API's own rules apply" (the controls' README); under this
 * naming a client sends, and the API answers, the real words. The app is built with the linode
 * naming explicitly: these tests assert the real words literally, as test/compat does.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { bootstrapHeaders, useControlApp } from './control-app.ts'

const OWNER_TOKEN = 'd4'.repeat(32)
const SCOPED_TOKEN = 'e5'.repeat(32)
const owner = { authorization: `Bearer ${OWNER_TOKEN}` }

describe('seed files under the linode naming', () => {
  const api = useControlApp({ naming: 'linode' })

  it('a seeded instance without a label is named linode<id>, as POST /v4/linode/instances names one', async () => {
    // The API's own create, for comparison: `linode<id>`.
    const made = await api.request({
      method: 'POST',
      url: '/v4/linode/instances',
      headers: bootstrapHeaders,
      payload: { region: 'us-iad', type: 'g6-nanode-1' },
    })
    assert.equal(made.status, 200, JSON.stringify(made.body))
    assert.equal(made.body.label, `linode${made.body.id}`)

    const res = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [
            { username: 'nolabel-owner', email: 'nolabel@example.com', tokens: [{ token: OWNER_TOKEN }] },
          ],
          instances: [{ region: 'us-iad', type: 'g6-nanode-1' }],
        },
      ],
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const list = await api.request({ method: 'GET', url: '/v4/linode/instances', headers: owner })
    assert.equal(list.status, 200)
    const [seeded] = list.body.data
    assert.equal(seeded.label, `linode${seeded.id}`)
  })

  it('takes an instance image by its real id (linode/debian12)', async () => {
    const res = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [{ username: 'realimg-owner', email: 'realimg@example.com' }],
          instances: [
            {
              label: 'web-1',
              region: 'us-iad',
              type: 'g6-nanode-1',
              image: 'linode/debian12',
              root_pass: 'Str0ng-Passw0rd!',
            },
          ],
        },
      ],
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  })

  it("takes a token's scopes in the real words (linodes:read_only), as POST /v4/profile/tokens does", async () => {
    // The API under this naming takes `linodes:` and refuses the document's `computes:`.
    const viaApi = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'ro', scopes: 'linodes:read_only' },
    })
    assert.equal(viaApi.status, 200, JSON.stringify(viaApi.body))

    const res = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [
            {
              username: 'realscope-owner',
              email: 'realscope@example.com',
              tokens: [{ token: SCOPED_TOKEN, scopes: 'linodes:read_only' }],
            },
          ],
        },
      ],
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const read = await api.request({
      method: 'GET',
      url: '/v4/linode/instances',
      headers: { authorization: `Bearer ${SCOPED_TOKEN}` },
    })
    assert.equal(read.status, 200, JSON.stringify(read.body))
  })

  it('takes grants under the real keys (linode, add_linodes), as GET …/grants answers them', async () => {
    const res = await api.admin('POST', '/seed', {
      accounts: [
        {
          users: [
            { username: 'realgrant-owner', email: 'realgrant@example.com' },
            {
              username: 'realgrant-member',
              email: 'realgrant-m@example.com',
              restricted: true,
              grants: {
                global: { add_linodes: true },
                linode: [{ label: 'web-1', permissions: 'read_only' }],
              },
            },
          ],
          instances: [{ label: 'web-1', region: 'us-iad', type: 'g6-nanode-1' }],
        },
      ],
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  })
})
