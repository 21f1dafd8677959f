import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createInstance } from '../helpers/api-fixtures.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { apiErrors, clientFunction, connectClient } from './client.ts'

const call = clientFunction
const createVPC = call('createVPC')
const getVPC = call('getVPC')
const getVPCs = call('getVPCs')
const updateVPC = call('updateVPC')
const deleteVPC = call('deleteVPC')
const createSubnet = call('createSubnet')
const getSubnet = call('getSubnet')
const getSubnets = call('getSubnets')
const modifySubnet = call('modifySubnet')
const deleteSubnet = call('deleteSubnet')
const getVPCsIPs = call('getVPCsIPs')
const getVPCIPs = call('getVPCIPs')

/** The official client `@linode/api-v4` against cloudplane: VPCs, subnets, VPC IPs. */
describe('compatibility: @linode/api-v4 (VPCs)', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('creates, reads, changes and deletes VPCs and subnets', async () => {
    const vpc = await createVPC({
      label: 'compat-vpc',
      region: 'us-iad',
      subnets: [{ label: 'compat-subnet', ipv4: '10.0.0.0/24' }],
    })
    assert.equal(vpc.subnets.length, 1)
    assert.equal((await getVPC(vpc.id)).label, 'compat-vpc')
    const page = await getVPCs({ page_size: 25 }, { label: 'compat-vpc' })
    assert.equal(page.results, 1)
    const changed = await updateVPC(vpc.id, { description: 'from the client' })
    assert.equal(changed.description, 'from the client')
    const subnet = await createSubnet(vpc.id, { label: 'second', ipv4: '10.0.1.0/24' })
    assert.equal((await getSubnet(vpc.id, subnet.id)).ipv4, '10.0.1.0/24')
    assert.equal((await getSubnets(vpc.id)).results, 2)
    assert.equal((await modifySubnet(vpc.id, subnet.id, { label: 'renamed' })).label, 'renamed')
    const overlap = await apiErrors(createSubnet(vpc.id, { label: 'clash', ipv4: '10.0.1.0/25' }))
    assert.deepEqual(overlap, [
      { reason: 'Overlaps subnet renamed (10.0.1.0/24) of this VPC', field: 'ipv4' },
    ])
    await deleteSubnet(vpc.id, subnet.id)
    await deleteVPC(vpc.id)
    assert.deepEqual(await apiErrors(getVPC(vpc.id)), [{ reason: 'Not found' }])
  })

  it('lists VPC IP addresses of the account and of one VPC', async () => {
    const vpc = await createVPC({
      label: 'compat-ips',
      region: 'us-iad',
      subnets: [{ label: 's', ipv4: '10.1.0.0/24' }],
    })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0]?.id }],
    })
    const all = await getVPCsIPs({}, { linode_id: instance.id })
    assert.equal(all.results, 1)
    assert.equal(all.data[0]?.address, '10.1.0.2')
    assert.equal(all.data[0]?.active, true)
    const one = await getVPCIPs(vpc.id)
    assert.equal(one.data[0]?.gateway, '10.1.0.1')
  })
})
