import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createSubnet, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'

describe('subnet refusals', () => {
  const api = useTestApp()

  const post = (headers: Record<string, string>, vpcId: number, payload: unknown) =>
    api.request({ method: 'POST', url: `/v4/vpcs/${vpcId}/subnets`, headers, payload: payload as object })

  it('refuses ranges that break the ipv4 rules, each with its reason', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    const cases: Array<[string, string]> = [
      ['10.0.0.0', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['10.0.0/24', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['010.0.0.0/24', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['10.0.0.0/024', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['256.0.0.0/8', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['fd00::/64', 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24'],
      ['10.0.0.1/24', 'Must be a canonical CIDR with the host bits zero, e.g. 10.0.0.0/24'],
      ['10.0.0.0/30', 'Prefix length must be between /1 and /29'],
      ['10.0.0.0/32', 'Prefix length must be between /1 and /29'],
      ['0.0.0.0/0', 'Prefix length must be between /1 and /29'],
      ['10.0.0.0/7', 'Must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'],
      ['8.8.8.0/24', 'Must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'],
      ['172.32.0.0/16', 'Must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'],
      ['192.168.0.0/16', 'Must not overlap 192.168.128.0/17, which is reserved'],
      ['192.168.128.0/24', 'Must not overlap 192.168.128.0/17, which is reserved'],
      ['192.168.255.248/29', 'Must not overlap 192.168.128.0/17, which is reserved'],
    ]
    for (const [ipv4, reason] of cases) {
      const res = await post(owner.headers, vpc.id, { label: 'x', ipv4 })
      assert.equal(res.status, 400, ipv4)
      assert.deepEqual(res.body, { errors: [{ field: 'ipv4', reason }] }, ipv4)
    }
    const list = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: owner.headers,
    })
    assert.equal(list.body.results, 0)
  })

  it('refuses a range overlapping another subnet of the VPC, and a duplicate label', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'wide', ipv4: '10.0.0.0/16' }] })
    for (const ipv4 of ['10.0.0.0/16', '10.0.128.0/24', '10.0.0.0/8']) {
      const res = await post(owner.headers, vpc.id, { label: 'other', ipv4 })
      assert.deepEqual(res.body, {
        errors: [{ reason: 'Overlaps subnet wide (10.0.0.0/16) of this VPC', field: 'ipv4' }],
      })
    }
    const dup = await post(owner.headers, vpc.id, { label: 'wide', ipv4: '10.1.0.0/16' })
    assert.deepEqual(dup.body, {
      errors: [{ reason: 'Label must be unique among the subnets of this VPC', field: 'label' }],
    })
    const both = await post(owner.headers, vpc.id, { label: 'wide', ipv4: '10.0.1.0/24' })
    assert.deepEqual(
      both.body.errors.map((e: { field: string }) => e.field),
      ['label', 'ipv4'],
    )
  })

  it('refuses bad labels and missing fields', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    const res = await post(owner.headers, vpc.id, { label: 'a--b' })
    assert.deepEqual(res.body, {
      errors: [
        { field: 'ipv4', reason: 'ipv4 is required' },
        { field: 'label', reason: 'Label must not contain two dashes in a row' },
      ],
    })
  })

  it('allows 10 subnets per VPC, not 11', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    for (let i = 0; i < 10; i++) await createSubnet(api, owner, vpc.id, `10.0.${i}.0/24`)
    const res = await post(owner.headers, vpc.id, { label: 'eleventh', ipv4: '10.0.10.0/24' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'A VPC can have at most 10 subnets' }] })
  })

  it('refuses a label update to a label in use; the subnet must belong to the VPC', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'one', ipv4: '10.0.0.0/24' },
        { label: 'two', ipv4: '10.0.1.0/24' },
      ],
    })
    const clash = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[1].id}`,
      headers: owner.headers,
      payload: { label: 'one' },
    })
    assert.deepEqual(clash.body, {
      errors: [{ reason: 'Label must be unique among the subnets of this VPC', field: 'label' }],
    })
    const other = await createVpc(api, owner)
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await api.request({
        method,
        url: `/v4/vpcs/${other.id}/subnets/${vpc.subnets[0].id}`,
        headers: owner.headers,
        ...(method === 'PUT' && { payload: { label: 'x' } }),
      })
      assert.equal(res.status, 404, method)
    }
  })

  it('refuses to delete a subnet in use: running instances must be shut down first', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const subnet = vpc.subnets[0]
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: subnet.id }],
    })
    const url = `/v4/vpcs/${vpc.id}/subnets/${subnet.id}`
    const running = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(running.status, 400)
    assert.deepEqual(running.body, {
      errors: [
        {
          reason: `Subnet app (${subnet.id}) is assigned to config interfaces of Compute ${instance.id}; shut down the Compute and delete those interfaces first`,
        },
      ],
    })
    await power(api, owner, instance.id, 'shutdown')
    const stopped = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.deepEqual(stopped.body, {
      errors: [
        {
          reason: `Subnet app (${subnet.id}) is assigned to config interfaces of Compute ${instance.id}; delete those interfaces first`,
        },
      ],
    })
    const config = await firstConfig(api, owner, instance.id)
    assert.equal(config.interfaces.length, 1)
    const view = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.equal(view.status, 200, 'the subnet is still there')
  })
})
