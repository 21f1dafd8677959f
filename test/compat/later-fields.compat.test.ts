import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createVpc } from '../helpers/api-fixtures.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { clientFunction as call, connectClient } from './client.ts'

const ROOT_PASS = 'correct-Horse-battery-9'

/** An instance on the subnet, made by the client (the fixtures speak the run's naming). */
const createLinodeOn = (vpcId: number, subnetId: number) =>
  call('createLinode')({
    region: 'us-iad',
    type: 'g6-nanode-1',
    image: 'linode/debian12',
    root_pass: ROOT_PASS,
    interfaces: [{ purpose: 'vpc', vpc_id: vpcId, subnet_id: subnetId }],
  })

const NO_IPV6 = { ipv6_range: null, ipv6_is_public: null, ipv6_addresses: [], nodebalancer_id: null }

/**
 * Fields the real service added after the document's version, which the official client's types
 * require and its users read (`subnet.nodebalancers.length`): sent with the real naming, empty or
 * null since nothing here fills them (docs/decisions.md, "Fields of later versions").
 */
describe('compatibility: @linode/api-v4, later fields in linode naming', () => {
  const api = useTestApp({ naming: 'linode' })
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it("gives every subnet an empty nodebalancers list, in the VPC's answers and its own", async () => {
    const vpc = await call('createVPC')({
      label: 'later-subnets',
      region: 'us-iad',
      subnets: [{ label: 'first', ipv4: '10.2.0.0/24' }],
    })
    assert.deepEqual(vpc.subnets[0].nodebalancers, [])
    assert.deepEqual(Object.keys(vpc.subnets[0]), [
      'id',
      'label',
      'ipv4',
      'linodes',
      'nodebalancers',
      'created',
      'updated',
    ])
    const instance = await createLinodeOn(vpc.id, vpc.subnets[0].id)
    const configs = await call('getLinodeConfigs')(instance.id)
    const config = configs.data[0]
    // Each interface on the subnet names its config profile, in every answer that lists it.
    const attached = [
      { id: instance.id, interfaces: [{ id: config.interfaces[0].id, active: true, config_id: config.id }] },
    ]
    const read = await call('getVPC')(vpc.id)
    assert.deepEqual(read.subnets[0].nodebalancers, [])
    assert.deepEqual(read.subnets[0].linodes, attached)
    assert.deepEqual(Object.keys(read.subnets[0].linodes[0].interfaces[0]), ['id', 'active', 'config_id'])
    const listed = await call('getVPCs')({}, { label: 'later-subnets' })
    assert.deepEqual(listed.data[0].subnets[0].nodebalancers, [])
    assert.deepEqual(listed.data[0].subnets[0].linodes, attached)
    assert.deepEqual((await call('getSubnet')(vpc.id, vpc.subnets[0].id)).linodes, attached)
    assert.deepEqual((await call('getSubnets')(vpc.id)).data[0].linodes, attached)
    const second = await call('createSubnet')(vpc.id, { label: 'second', ipv4: '10.2.1.0/24' })
    assert.deepEqual(second.nodebalancers, [])
    assert.deepEqual((await call('getSubnet')(vpc.id, second.id)).nodebalancers, [])
    assert.deepEqual((await call('modifySubnet')(vpc.id, second.id, { label: 'renamed' })).nodebalancers, [])
    const subnets = await call('getSubnets')(vpc.id)
    assert.deepEqual(
      subnets.data.map((s: { nodebalancers: unknown }) => s.nodebalancers),
      [[], []],
    )
  })

  it('gives VPC IP records the IPv6 and load balancer fields, empty', async () => {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'ips', ipv4: '10.3.0.0/24' }] })
    const instance = await createLinodeOn(vpc.id, vpc.subnets[0].id)
    const all = await call('getVPCsIPs')({}, { linode_id: instance.id })
    assert.equal(all.data[0].address, '10.3.0.2')
    assert.deepEqual({ ...all.data[0], ...NO_IPV6 }, all.data[0])
    const one = await call('getVPCIPs')(vpc.id)
    assert.deepEqual({ ...one.data[0], ...NO_IPV6 }, one.data[0])
  })

  it('gives regions their placement-group limits, in the list and alone', async () => {
    // As recorded (linodego fixtures of 2024: 100 groups per customer, 5 instances per group).
    const limits = { maximum_pgs_per_customer: 100, maximum_linodes_per_pg: 5 }
    const regions = await call('getRegions')()
    assert.ok(regions.data.length > 0)
    for (const region of regions.data) assert.deepEqual(region.placement_group_limits, limits)
    assert.deepEqual((await call('getRegion')('us-iad')).placement_group_limits, limits)
  })

  it('keeps the later fields out of what it reads from a client', async () => {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'sent', ipv4: '10.4.0.0/24' }] })
    // A client that sends back what it read: the extra keys are ignored, not refused.
    const read = await call('getSubnet')(vpc.id, vpc.subnets[0].id)
    const changed = await call('modifySubnet')(vpc.id, read.id, { label: 'again', nodebalancers: [] })
    assert.equal(changed.label, 'again')
  })
})

describe('document naming: no later fields', () => {
  const api = useTestApp({ naming: 'document' })

  it('sends subnets, VPC IPs and regions as the document has them', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'doc', ipv4: '10.5.0.0/24' }] })
    // Written out: the fixtures speak the naming of the run (linode, for this directory).
    const instance = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        type: 'g6-nanode-1',
        region: 'us-iad',
        image: 'compute/debian12',
        root_pass: ROOT_PASS,
        interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
      },
    })
    assert.equal(instance.status, 200, JSON.stringify(instance.body))
    for (const key of ['site_type', 'placement_group', 'disk_encryption', 'lke_cluster_id', 'locks']) {
      assert.equal(key in instance.body, false, key)
    }
    assert.equal('accelerated_devices' in instance.body.specs, false)
    const read = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal('nodebalancers' in read.body.subnets[0], false)
    assert.deepEqual(Object.keys(read.body.subnets[0].linodes[0].interfaces[0]), ['id', 'active'])
    const subnet = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`,
      headers: owner.headers,
    })
    assert.deepEqual(Object.keys(subnet.body.linodes[0].interfaces[0]), ['id', 'active'])
    const ips = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}/ips`, headers: owner.headers })
    assert.equal(ips.body.data.length, 1)
    for (const key of Object.keys(NO_IPV6)) assert.equal(key in ips.body.data[0], false)
    const region = await api.request({ method: 'GET', url: '/v4/regions/us-iad' })
    assert.equal('placement_group_limits' in region.body, false)
  })
})

/**
 * An instance's fields of later versions under the real naming: its region's site type, and what
 * an instance here has of the rest (nothing: no placement group, encryption, cluster, locks or
 * maintenance policy; interfaces on its config profiles).
 */
describe('compatibility: @linode/api-v4, instance fields of later versions in linode naming', () => {
  const api = useTestApp({ naming: 'linode' })
  const LATER = {
    site_type: 'core',
    placement_group: null,
    disk_encryption: 'disabled',
    lke_cluster_id: null,
    capabilities: [],
    interface_generation: 'legacy_config',
    maintenance_policy: null,
    locks: [],
  }
  before(async () => {
    await connectClient(api, (await createAccount(api)).token)
  })

  it('sends them in every answer that holds an instance, the same in each', async () => {
    const created = await call('createLinode')({
      region: 'us-ord',
      type: 'g6-nanode-1',
      image: 'linode/debian12',
      root_pass: ROOT_PASS,
      label: 'later-instance',
    })
    assert.deepEqual({ ...created, ...LATER }, created)
    assert.equal(created.specs.accelerated_devices, 0)
    assert.deepEqual(Object.keys(created.specs), [
      'disk',
      'memory',
      'vcpus',
      'gpus',
      'transfer',
      'accelerated_devices',
    ])
    const read = await call('getLinode')(created.id)
    assert.deepEqual(read, created)
    assert.deepEqual((await call('getLinodes')({}, { label: 'later-instance' })).data, [read])
    const updated = await call('updateLinode')(created.id, { tags: ['later'] })
    assert.deepEqual({ ...updated, ...LATER }, updated)
  })

  it("gives an instance its region's site type", async () => {
    await api.db.updateTable('regions').set({ site_type: 'distributed' }).where('id', '=', 'us-sea').execute()
    const created = await call('createLinode')({ region: 'us-sea', type: 'g6-nanode-1', label: 'edge-one' })
    assert.equal(created.site_type, 'distributed')
    assert.equal((await call('getLinode')(created.id)).site_type, 'distributed')
    assert.equal((await call('getLinodes')({}, { label: 'edge-one' })).data[0].site_type, 'distributed')
  })
})
