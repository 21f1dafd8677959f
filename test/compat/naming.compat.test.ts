import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createVpc } from '../helpers/api-fixtures.ts'
import { type TestApp, useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser, uniqueName } from '../helpers/factories.ts'
import { apiErrors, clientFunction as call, connectClient, useToken } from './client.ts'

const ROOT_PASS = 'correct-Horse-battery-9'

/** The real service's top-level grant keys, in its order (`lkecluster`, a newer key, placed by us). */
const REAL_GRANT_KEYS = [
  'linode',
  'nodebalancer',
  'domain',
  'stackscript',
  'longview',
  'image',
  'volume',
  'firewall',
  'database',
  'lkecluster',
  'vpc',
  'global',
]

/**
 * The official TypeScript client, unchanged and only pointed at cloudplane's base URL, against a
 * deployment in `linode` naming: every name on the wire is the real service's.
 */
describe('compatibility: @linode/api-v4 in linode naming', () => {
  const api = useTestApp({ naming: 'linode' })
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('creates an instance with a VPC interface, boots, shuts down and deletes it', async () => {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const subnetId = vpc.subnets[0].id
    const linode = await call('createLinode')({
      region: 'us-iad',
      type: 'g6-nanode-1',
      image: 'linode/debian12',
      root_pass: ROOT_PASS,
      label: 'compat-web',
      interfaces: [{ purpose: 'public' }, { purpose: 'vpc', vpc_id: vpc.id, subnet_id: subnetId }],
    })
    assert.equal(linode.image, 'linode/debian12')
    assert.equal(linode.status, 'running')
    await call('linodeShutdown')(linode.id)
    assert.equal((await call('getLinode')(linode.id)).status, 'offline')
    await call('linodeBoot')(linode.id)
    assert.equal((await call('getLinode')(linode.id)).status, 'running')
    const listed = await call('getLinodes')({}, { label: 'compat-web' })
    assert.deepEqual(
      listed.data.map((l: { id: number }) => l.id),
      [linode.id],
    )

    const [config] = (await call('getLinodeConfigs')(linode.id)).data
    assert.equal(config.kernel, 'linode/grub2')
    const interfaces = await call('getConfigInterfaces')(linode.id, config.id)
    assert.deepEqual(
      interfaces.map((i: { purpose: string }) => i.purpose),
      ['public', 'vpc'],
    )
    const renamed = await call('updateLinodeConfig')(linode.id, config.id, { label: 'renamed' })
    assert.equal(renamed.label, 'renamed')
    assert.equal(renamed.interfaces.length, 2, 'a config update without interfaces keeps them')

    // The poller of the Go client and Terraform: the boot event by its real action and entity type.
    const events = await call('getEvents')({}, { action: 'linode_boot', 'entity.type': 'linode' })
    const boot = events.data.find((e: { entity: { id: number } }) => e.entity.id === linode.id)
    assert.ok(boot, 'the boot event is found by its real action name')
    assert.equal(boot.entity.url, `/v4/linode/instances/${linode.id}`)
    assert.equal(boot.status, 'finished')
    const created = (await call('getEvents')({}, { action: 'linode_create' })).data.find(
      (e: { entity: { id: number } }) => e.entity.id === linode.id,
    )
    assert.equal(created.secondary_entity.id, 'linode/debian12')
    assert.equal(created.secondary_entity.type, 'image')

    await call('deleteLinode')(linode.id)
    assert.deepEqual(await apiErrors(call('getLinode')(linode.id)), [{ reason: 'Not found' }])
  })

  it('lists the types with their real labels', async () => {
    const types = await call('getLinodeTypes')()
    const nanode = types.data.find((t: { id: string }) => t.id === 'g6-nanode-1')
    assert.equal(nanode.label, 'Nanode 1GB')
    assert.equal((await call('getType')('g6-standard-1')).label, 'Linode 2GB')
  })

  it('issues tokens with linodes: scopes and reports them in the real words', async () => {
    const created = await call('createPersonalAccessToken')({ label: 'ro', scopes: 'linodes:read_only' })
    assert.equal(created.scopes, 'linodes:read_only')
    const read = await api.request({
      method: 'GET',
      url: '/v4/linode/instances',
      headers: { authorization: `Bearer ${created.token}` },
    })
    assert.equal(read.status, 200)
    assert.equal(read.headers['x-oauth-scopes'], 'linodes:read_only')
    assert.equal(read.headers['x-accepted-oauth-scopes'], 'linodes:read_only')
    useToken(created.token)
    try {
      const denied = await apiErrors(call('createLinode')({ region: 'us-iad', type: 'g6-nanode-1' }))
      assert.deepEqual(denied, [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }])
    } finally {
      useToken(owner.token)
    }
    const documentWords = await apiErrors(
      call('createPersonalAccessToken')({ label: 'doc', scopes: 'computes:read_only' }),
    )
    assert.equal(documentWords.length, 1)
    assert.equal(documentWords[0]?.field, 'scopes')
  })

  it("sets a restricted user's grants with the real keys, in the real order", async () => {
    const username = uniqueName('member')
    await call('createUser')({ username, email: `${username}@example.com`, restricted: true })
    const linode = await call('createLinode')({ region: 'us-iad', type: 'g6-nanode-1', label: 'granted' })
    await call('updateGrants')(username, {
      global: { add_linodes: true, add_longview: true },
      linode: [{ id: linode.id, permissions: 'read_only' }],
    })
    const grants = await call('getGrants')(username)
    assert.deepEqual(Object.keys(grants), REAL_GRANT_KEYS)
    assert.deepEqual(grants.linode, [{ id: linode.id, label: 'granted', permissions: 'read_only' }])
    assert.deepEqual(grants.firewall, [])
    assert.deepEqual(grants.lkecluster, [])
    assert.equal(grants.global.add_lkes, false)
    assert.equal(grants.global.child_account_access, null)
    assert.equal(grants.global.add_linodes, true)
    assert.equal(grants.global.add_longview, true)
    assert.equal(grants.global.longview_subscription, false)
    assert.equal('add_computes' in grants.global, false)
    // The global flags in the recorded order (linodego TestUserGrants_Update), newer flags after.
    assert.deepEqual(Object.keys(grants.global), [
      'add_domains',
      'add_linodes',
      'add_longview',
      'longview_subscription',
      'add_stackscripts',
      'add_nodebalancers',
      'add_images',
      'add_volumes',
      'add_firewalls',
      'account_access',
      'cancel_account',
      'add_databases',
      'add_vpcs',
      'add_kubernetes',
      'add_lkes',
      'child_account_access',
    ])
    const user = await call('getUser')(username)
    assert.equal(user.user_type, 'default')
  })

  it('lists regions by the Linodes capability', async () => {
    const regions = await call('getRegions')()
    const offering = regions.data.filter((r: { capabilities: string[] }) =>
      r.capabilities.includes('Linodes'),
    )
    assert.ok(offering.some((r: { id: string }) => r.id === 'us-iad'))
    assert.ok(!regions.data.some((r: { capabilities: string[] }) => r.capabilities.includes('Computes')))
    assert.equal(regions.data[0].site_type, 'core')
  })

  it("reads and changes the profile's lish_auth_method", async () => {
    const profile = await call('getProfile')()
    assert.equal(profile.lish_auth_method, 'password_keys')
    assert.equal(profile.user_type, 'default')
    assert.equal('shell_auth_method' in profile, false)
    const changed = await call('updateProfile')({ lish_auth_method: 'keys_only' })
    assert.equal(changed.lish_auth_method, 'keys_only')
    assert.equal((await call('getProfile')()).lish_auth_method, 'keys_only')
    const refused = await apiErrors(call('updateProfile')({ lish_auth_method: 'sometimes' }))
    assert.equal(refused[0]?.field, 'lish_auth_method')
  })

  it('says Linode in error reasons', async () => {
    await call('createLinode')({ region: 'us-iad', type: 'g6-nanode-1', label: 'twin' })
    const errors = await apiErrors(
      call('createLinode')({ region: 'us-iad', type: 'g6-nanode-1', label: 'twin' }),
    )
    assert.deepEqual(errors, [{ reason: 'Label must be unique among your Linodes', field: 'label' }])
  })

  it('leaves user text alone and does not answer in the document words', async () => {
    const linode = await call('createLinode')({
      region: 'us-iad',
      type: 'g6-nanode-1',
      label: 'compute-linode',
    })
    assert.equal(linode.label, 'compute-linode')
    const unnamed = await call('createLinode')({ region: 'us-iad', type: 'g6-nanode-1' })
    assert.equal(unnamed.label, `linode${unnamed.id}`)
    const old = await api.request({ method: 'GET', url: '/v4/compute/instances', headers: owner.headers })
    assert.equal(old.status, 404)
  })
})

/** The same flows in the document's words, through plain HTTP (the default naming). */
describe('the same flows in document naming, over HTTP', () => {
  const api = useTestApp({ naming: 'document' })
  let owner: TestUser
  const request = (app: TestApp, method: string, url: string, payload?: object, token = owner.token) =>
    app.request({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload !== undefined && { payload }),
    })
  before(async () => {
    owner = await createAccount(api)
  })

  it('instances with a VPC interface, configs, power, events and delete', async () => {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const created = await request(api, 'POST', '/v4/compute/instances', {
      region: 'us-iad',
      type: 'g6-nanode-1',
      image: 'compute/debian12',
      root_pass: ROOT_PASS,
      label: 'doc-web',
      interfaces: [{ purpose: 'public' }, { purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const id = created.body.id
    assert.equal(created.body.image, 'compute/debian12')
    assert.equal((await request(api, 'POST', `/v4/compute/instances/${id}/shutdown`)).status, 200)
    assert.equal((await request(api, 'POST', `/v4/compute/instances/${id}/boot`)).status, 200)
    const configs = await request(api, 'GET', `/v4/compute/instances/${id}/configs`)
    const config = configs.body.data[0]
    assert.equal(config.kernel, 'compute/grub2')
    const renamed = await request(api, 'PUT', `/v4/compute/instances/${id}/configs/${config.id}`, {
      label: 'renamed',
      interfaces: null,
    })
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body))
    assert.equal(renamed.body.interfaces.length, 2, '"interfaces": null keeps them')
    const filter = JSON.stringify({ action: 'compute_boot', 'entity.type': 'compute' })
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': filter },
    })
    const boot = events.body.data.find((e: { entity: { id: number } }) => e.entity.id === id)
    assert.equal(boot.entity.url, `/v4/compute/instances/${id}`)
    const createdEvent = (
      await api.request({
        method: 'GET',
        url: '/v4/account/events',
        headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_create' }) },
      })
    ).body.data.find((e: { entity: { id: number } }) => e.entity.id === id)
    assert.equal(createdEvent.secondary_entity.id, 'compute/debian12')
    assert.equal((await request(api, 'DELETE', `/v4/compute/instances/${id}`)).status, 200)
    assert.equal((await request(api, 'GET', '/v4/linode/instances')).status, 404)
  })

  it('types, tokens with computes: scopes, grants, regions and the profile', async () => {
    const type = await request(api, 'GET', '/v4/compute/types/g6-standard-1')
    assert.equal(type.body.label, 'Compute 2GB')
    const token = await request(api, 'POST', '/v4/profile/tokens', {
      label: 'ro',
      scopes: 'computes:read_only',
    })
    assert.equal(token.body.scopes, 'computes:read_only')
    const read = await request(api, 'GET', '/v4/compute/instances', undefined, token.body.token)
    assert.equal(read.headers['x-oauth-scopes'], 'computes:read_only')
    const real = await request(api, 'POST', '/v4/profile/tokens', {
      label: 'real',
      scopes: 'linodes:read_only',
    })
    assert.equal(real.status, 400)

    const username = uniqueName('member')
    await request(api, 'POST', '/v4/account/users', {
      username,
      email: `${username}@example.com`,
      restricted: true,
    })
    const put = await request(api, 'PUT', `/v4/account/users/${username}/grants`, {
      global: { add_computes: true },
    })
    assert.equal(put.status, 200, JSON.stringify(put.body))
    assert.equal(put.body.global.add_computes, true)
    assert.ok(put.body.compute && !('linode' in put.body) && !('firewall' in put.body))
    assert.ok(!('lkecluster' in put.body) && !('add_lkes' in put.body.global))

    const regions = await request(api, 'GET', '/v4/regions')
    assert.ok(regions.body.data.some((r: { capabilities: string[] }) => r.capabilities.includes('Computes')))
    assert.ok(!('placement_group_limits' in regions.body.data[0]))

    const profile = await request(api, 'PUT', '/v4/profile', { shell_auth_method: 'keys_only' })
    assert.equal(profile.body.shell_auth_method, 'keys_only')
    assert.equal('lish_auth_method' in profile.body, false)
    assert.equal('user_type' in profile.body, false)
  })
})
