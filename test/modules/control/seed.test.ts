import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useControlApp } from './control-app.ts'

const OWNER_TOKEN = '5e'.repeat(32)
const MEMBER_TOKEN = '6f'.repeat(32)
const ED25519 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIM5cGHw9iymea0uIr2SWyQksi/Wq1eVaZpIO+80qqvKz ci@example'

const SEED_YAML = `
clock:
  at: "2030-01-01T00:00:00"
accounts:
  - users:
      - username: ci-owner
        email: ci-owner@example.com
        tokens:
          - token: "${OWNER_TOKEN}"
            label: ci
        ssh_keys:
          - label: laptop
            ssh_key: "${ED25519}"
      - username: ci-member
        email: ci-member@example.com
        restricted: true
        tokens:
          - token: "${MEMBER_TOKEN}"
            scopes: "vpc:read_only"
            expiry: "2030-01-02T00:00:00"
        grants:
          global: { add_vpcs: false }
          vpc:
            - label: app-net
              permissions: read_only
    vpcs:
      - label: app-net
        region: us-iad
        subnets:
          - { label: web, ipv4: 10.0.1.0/24 }
          - { label: db, ipv4: 10.0.2.0/24 }
    images:
      - label: golden
        description: the golden image
        size: 2048
        tags: [gold, base, gold]
    instances:
      - label: web-1
        region: us-iad
        type: g6-nanode-1
        image: compute/debian12
        root_pass: Str0ng-Passw0rd!
        interfaces:
          - purpose: public
          - purpose: vpc
            vpc: app-net
            subnet: web
`

const owner = { authorization: `Bearer ${OWNER_TOKEN}` }
const member = { authorization: `Bearer ${MEMBER_TOKEN}` }

describe('seeding', () => {
  const api = useControlApp()

  it('loads a YAML file: accounts, users, fixed tokens, keys, VPCs, images, instances, grants, clock', async () => {
    const res = await api.request({
      method: 'POST',
      url: '/_cloudplane/seed',
      headers: {
        'x-cloudplane-admin-key': 'test-admin-key-0123456789abcdef',
        'content-type': 'application/yaml',
      },
      payload: SEED_YAML,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(res.body.accounts[0].usernames, ['ci-owner', 'ci-member'])

    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: owner })
    assert.equal(profile.body.username, 'ci-owner')
    const vpcs = (await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner })).body.data
    assert.equal(vpcs.length, 1)
    assert.deepEqual(
      vpcs[0].subnets.map((s: { label: string; ipv4: string }) => [s.label, s.ipv4]),
      [
        ['web', '10.0.1.0/24'],
        ['db', '10.0.2.0/24'],
      ],
    )
    assert.ok(vpcs[0].created.startsWith('2030-01-01T'), `stamped by the seed's clock: ${vpcs[0].created}`)
    const web = vpcs[0].subnets[0]
    assert.equal(web.linodes.length, 1, 'the instance sits in the web subnet')
    const keys = (await api.request({ method: 'GET', url: '/v4/profile/sshkeys', headers: owner })).body.data
    assert.deepEqual(
      keys.map((k: { label: string }) => k.label),
      ['laptop'],
    )
    const images = (await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: owner }))
      .body.data
    assert.ok(images.some((i: { label: string; is_public: boolean }) => i.label === 'golden' && !i.is_public))
    // Its tags are kept as the API keeps them (shown under the real naming only).
    const golden = await api.db
      .selectFrom('images')
      .select('tags')
      .where('label', '=', 'golden')
      .executeTakeFirst()
    assert.equal(golden?.tags, '["base","gold"]')

    // The restricted member sees what its grant gives, with its scoped token.
    const seen = await api.request({ method: 'GET', url: '/v4/vpcs', headers: member })
    assert.equal(seen.status, 200)
    assert.equal(seen.body.data.length, 1)
    const refused = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: member,
      payload: { label: 'nope', region: 'us-iad' },
    })
    assert.equal(refused.status, 401, 'its token is read-only')
    const clock = await api.admin('GET', '/clock')
    assert.ok(clock.body.virtual.startsWith('2030-01-01T'))
    // The member's token expires by the virtual clock.
    await api.admin('POST', '/clock/advance', { by: '1d' })
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: member })).status, 401)
    await api.admin('POST', '/clock/resume')
  })

  it("a seeded account's reset returns to its seeded state", async () => {
    await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner,
      payload: { label: 'added-later', region: 'us-iad' },
    })
    const reset = await api.admin('POST', '/reset', { username: 'ci-owner' })
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    const vpcs = (await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner })).body.data
    assert.deepEqual(
      vpcs.map((v: { label: string }) => v.label),
      ['app-net'],
    )
  })

  it('refuses a bad file whole, each error naming its place in the file; nothing is loaded', async () => {
    const bad = {
      accounts: [
        { users: [{ username: 'fine-owner', email: 'fine@example.com' }] },
        {
          users: [{ username: 'bad-owner', email: 'bad@example.com', colour: 'blue' }],
          vpcs: [{ label: 'x1', region: 'us-iad', subnets: [{ label: 's', ipv4: 12 }] }],
        },
      ],
    }
    const res = await api.admin('POST', '/seed', bad)
    assert.equal(res.status, 400)
    const fields = res.body.errors.map((e: { field: string }) => e.field)
    assert.ok(fields.includes('accounts[1].users[0].colour'), JSON.stringify(fields))
    assert.ok(fields.includes('accounts[1].vpcs[0].subnets[0].ipv4'), JSON.stringify(fields))

    // Valid in shape, refused by the API's own rules: overlapping subnets.
    const overlapping = {
      accounts: [
        { users: [{ username: 'fine-owner', email: 'fine@example.com' }] },
        {
          users: [{ username: 'second-owner', email: 'second@example.com' }],
          vpcs: [
            { label: 'ok-net', region: 'us-iad' },
            {
              label: 'clash',
              region: 'us-iad',
              subnets: [
                { label: 'a', ipv4: '10.9.0.0/16' },
                { label: 'b', ipv4: '10.9.1.0/24' },
              ],
            },
          ],
        },
      ],
    }
    const refused = await api.admin('POST', '/seed', overlapping)
    assert.equal(refused.status, 400)
    assert.ok(
      refused.body.errors.some((e: { field: string }) => e.field.startsWith('accounts[1].vpcs[1].subnets[')),
      JSON.stringify(refused.body),
    )
    const dump = await api.admin('GET', '/accounts/fine-owner/state')
    assert.equal(dump.status, 400, 'the first account, valid, was not loaded either')
  })
})
