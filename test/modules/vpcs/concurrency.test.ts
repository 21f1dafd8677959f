import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createSubnet, createVpc, firstConfig, label } from '../../helpers/api-fixtures.ts'
import { type TestResponse, useTestApp } from '../../helpers/app.ts'
import { defined } from '../../helpers/defined.ts'
import { createAccount } from '../../helpers/factories.ts'

/**
 * The invariants under concurrent requests. On PostgreSQL the requests really run at once (a pool
 * of connections); on SQLite they interleave at every await and commit in groups.
 */
describe('VPC invariants under concurrent requests', () => {
  const api = useTestApp()

  const statuses = (responses: TestResponse[]) => responses.map((r) => r.status).sort()

  it('of overlapping subnets created at once, exactly one is created', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    // Every range holds 10.0.0.0, so each pair overlaps.
    const ranges = ['10.0.0.0/8', '10.0.0.0/12', '10.0.0.0/16', '10.0.0.0/20', '10.0.0.0/24', '10.0.0.0/28']
    const responses = await Promise.all(
      ranges.map((ipv4, i) =>
        api.request({
          method: 'POST',
          url: `/v4/vpcs/${vpc.id}/subnets`,
          headers: owner.headers,
          payload: { label: `s${i}`, ipv4 },
        }),
      ),
    )
    assert.deepEqual(statuses(responses), [200, 400, 400, 400, 400, 400])
    for (const r of responses.filter((x) => x.status === 400)) {
      assert.equal(r.body.errors[0].field, 'ipv4')
      assert.match(r.body.errors[0].reason, /^Overlaps subnet /)
    }
    const list = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: owner.headers,
    })
    assert.equal(list.body.results, 1)
  })

  it('of VPCs created at once with one label, exactly one is created', async () => {
    const owner = await createAccount(api)
    const regions = ['us-iad', 'us-ord', 'fr-par', 'us-sea', 'br-gru', 'nl-ams']
    const responses = await Promise.all(
      regions.map((region) =>
        api.request({
          method: 'POST',
          url: '/v4/vpcs',
          headers: owner.headers,
          payload: { label: 'same', region },
        }),
      ),
    )
    assert.deepEqual(statuses(responses), [200, 400, 400, 400, 400, 400])
    for (const r of responses.filter((x) => x.status === 400)) {
      assert.deepEqual(r.body, {
        errors: [{ reason: 'Label must be unique among your VPCs', field: 'label' }],
      })
    }
    const list = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(list.body.results, 1)
  })

  it('of subnets racing for the last free places, only those that fit are created', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    for (let i = 0; i < 9; i++) await createSubnet(api, owner, vpc.id, `10.0.${i}.0/24`)
    const responses = await Promise.all(
      [20, 21, 22, 23, 24].map((n) =>
        api.request({
          method: 'POST',
          url: `/v4/vpcs/${vpc.id}/subnets`,
          headers: owner.headers,
          payload: { label: `late${n}`, ipv4: `10.0.${n}.0/24` },
        }),
      ),
    )
    assert.deepEqual(statuses(responses), [200, 400, 400, 400, 400])
    for (const r of responses.filter((x) => x.status === 400)) {
      assert.deepEqual(r.body, { errors: [{ reason: 'A VPC can have at most 10 subnets' }] })
    }
    const fetched = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(fetched.body.subnets.length, 10)
  })

  it('of VPCs racing for the last place of a region, exactly one is created', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 9; i++) await createVpc(api, owner, { region: 'it-mil' })
    const responses = await Promise.all(
      [1, 2, 3, 4].map(() =>
        api.request({
          method: 'POST',
          url: '/v4/vpcs',
          headers: owner.headers,
          payload: { label: label(), region: 'it-mil' },
        }),
      ),
    )
    assert.deepEqual(statuses(responses), [200, 400, 400, 400])
    const list = await api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'x-filter': '{"region":"it-mil"}' },
    })
    assert.equal(list.body.results, 10)
  })

  it('a subnet deleted while an interface attaches to it: one wins, never both', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner, { booted: false })
    const config = await firstConfig(api, owner, instance.id)
    const url = `/v4/compute/instances/${instance.id}/configs/${config.id}/interfaces`
    for (let round = 0; round < 4; round++) {
      const vpc = await createVpc(api, owner, { subnets: [{ label: 'contested', ipv4: '10.0.0.0/24' }] })
      const subnet = vpc.subnets[0]
      const [attach, remove] = await Promise.all([
        api.request({
          method: 'POST',
          url,
          headers: owner.headers,
          payload: { purpose: 'vpc', subnet_id: subnet.id },
        }),
        api.request({
          method: 'DELETE',
          url: `/v4/vpcs/${vpc.id}/subnets/${subnet.id}`,
          headers: owner.headers,
        }),
      ])
      assert.ok(attach && remove)
      assert.deepEqual(
        [attach.status, remove.status].sort(),
        [200, 400],
        JSON.stringify([attach.body, remove.body]),
      )
      const rows = await api.db
        .selectFrom('compute_interfaces')
        .select('id')
        .where('subnet_id', '=', subnet.id)
        .execute()
      const exists = await api.db.selectFrom('subnets').select('id').where('id', '=', subnet.id).execute()
      if (attach.status === 200) {
        assert.equal(exists.length, 1)
        assert.equal(rows.length, 1)
        await api.request({ method: 'DELETE', url: `${url}/${attach.body.id}`, headers: owner.headers })
      } else {
        assert.deepEqual(attach.body, { errors: [{ reason: 'Subnet not found', field: 'subnet_id' }] })
        assert.equal(exists.length, 0)
      }
    }
  })

  it('instances attaching to one subnet at once get distinct addresses', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'shared', ipv4: '10.0.0.0/24' }] })
    const instances = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => createInstance(api, owner, { booted: false })),
    )
    const configs = await Promise.all(instances.map((i) => firstConfig(api, owner, i.id)))
    const responses = await Promise.all(
      instances.map((instance, i) =>
        api.request({
          method: 'POST',
          url: `/v4/compute/instances/${instance.id}/configs/${defined(configs[i]).id}/interfaces`,
          headers: owner.headers,
          payload: { purpose: 'vpc', subnet_id: vpc.subnets[0].id },
        }),
      ),
    )
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 200, 200, 200, 200, 200],
    )
    const addresses = responses.map((r) => r.body.ipv4.vpc)
    assert.equal(new Set(addresses).size, 6, addresses.join(' '))
  })

  it('a label change and a description change at once: both are kept, and read back', async () => {
    for (let round = 0; round < 10; round++) {
      const owner = await createAccount(api)
      const vpc = await createVpc(api, owner, { label: label('before') })
      const renamed = label('renamed')
      const description = `described ${round}`
      const answers = await Promise.all([
        api.request({
          method: 'PUT',
          url: `/v4/vpcs/${vpc.id}`,
          headers: owner.headers,
          payload: { label: renamed },
        }),
        api.request({
          method: 'PUT',
          url: `/v4/vpcs/${vpc.id}`,
          headers: owner.headers,
          payload: { description },
        }),
      ])
      assert.deepEqual(statuses(answers), [200, 200])
      const read = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
      assert.deepEqual([read.body.label, read.body.description], [renamed, description], `round ${round}`)
      // The label it gave up is free, and only the renamed VPC carries the new one.
      assert.equal((await createVpc(api, owner, { label: vpc.label })).label, vpc.label)
    }
  })
})
