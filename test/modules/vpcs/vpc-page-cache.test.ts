import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { createInstance, createSubnet, createVpc, power } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../helpers/factories.ts'

/**
 * A VPC page, and a VPC, are kept as sent while no VPC, subnet or interface changed since they were
 * rendered (common/rendered-page-cache.ts). Whatever changes, the next answer must be the one the
 * database gives now.
 */
describe('VPC pages and VPCs kept as sent', () => {
  const api = useTestApp()

  const list = async (who: TestUser, filter?: object) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: { ...who.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.raw.body))
    return res
  }
  type Page = {
    body: { data: Array<{ label: string; subnets: Array<{ label: string; linodes: unknown[] }> }> }
  }
  const labels = (res: Page) => res.body.data.map((v) => v.label)
  const subnetLabels = (res: Page) => (res.body.data[0]?.subnets ?? []).map((s) => s.label)

  it('answers the same bytes again, and each change through the API at once', async () => {
    const owner = await createAccount(api)
    const first = await list(owner)
    assert.equal((await list(owner)).raw.body, first.raw.body)
    const vpc = await createVpc(api, owner, { label: 'one' })
    assert.deepEqual(labels(await list(owner)), ['one'])
    await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}`,
      headers: owner.headers,
      payload: { label: 'two' },
    })
    assert.deepEqual(labels(await list(owner)), ['two'])
    const subnet = await createSubnet(api, owner, vpc.id, '10.0.0.0/24')
    assert.deepEqual(subnetLabels(await list(owner)), [subnet.label])
    await api.request({
      method: 'DELETE',
      url: `/v4/vpcs/${vpc.id}/subnets/${subnet.id}`,
      headers: owner.headers,
    })
    assert.deepEqual((await list(owner)).body.data[0]?.subnets, [])
    await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal((await list(owner)).raw.body, first.raw.body)
  })

  it('shows an instance attached to a subnet, and its interface going inactive, at once', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.1.0.0/24' }] })
    const subnetOf = async () => (await list(owner)).body.data[0]?.subnets[0]
    assert.deepEqual((await subnetOf())?.linodes, [])
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const attached = (await subnetOf())?.linodes as Array<{
      id: number
      interfaces: Array<{ active: boolean }>
    }>
    assert.equal(attached[0]?.id, instance.id)
    assert.equal(attached[0]?.interfaces[0]?.active, true)
    await power(api, owner, instance.id, 'shutdown')
    const after = (await subnetOf())?.linodes as Array<{ interfaces: Array<{ active: boolean }> }>
    assert.equal(after[0]?.interfaces[0]?.active, false)
  })

  it('shows a change made by another process or an SQL client on the next request', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      label: 'kept',
      subnets: [{ label: 'sub', ipv4: '10.2.0.0/24' }],
    })
    assert.equal(subnetLabels(await list(owner)).length, 1)
    await sql`delete from subnets where vpc_id = ${vpc.id}`.execute(api.db)
    assert.deepEqual(subnetLabels(await list(owner)), [])
    await sql`delete from vpcs where id = ${vpc.id}`.execute(api.db)
    assert.deepEqual(labels(await list(owner)), [])
  })

  it('keeps each account’s pages, each filter’s and each page size’s apart', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    await createVpc(api, owner, { label: 'mine-a' })
    await createVpc(api, owner, { label: 'mine-b' })
    assert.deepEqual(labels(await list(owner)), ['mine-a', 'mine-b'])
    assert.deepEqual(labels(await list(other)), [])
    assert.deepEqual(labels(await list(owner, { label: 'mine-b' })), ['mine-b'])
    const small = await api.request({ method: 'GET', url: '/v4/vpcs?page_size=25', headers: owner.headers })
    assert.equal(small.body.results, 2)
    assert.deepEqual(labels(await list(owner)), ['mine-a', 'mine-b'])
  })

  it('gives a restricted user only the VPCs granted to them, after an unrestricted page was kept', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createVpc(api, owner, { label: 'granted' })
    await createVpc(api, owner, { label: 'hidden' })
    assert.deepEqual(labels(await list(owner)), ['granted', 'hidden'])
    assert.deepEqual(labels(await list(member)), [])
    await grantEntity(api, member, 'vpc', granted.id, 'read_only')
    assert.deepEqual(labels(await list(member)), ['granted'])
    assert.deepEqual(labels(await list(owner)), ['granted', 'hidden'])
  })

  it('refuses a revoked token though its account’s page is kept', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner)
    await list(owner)
    await sql`delete from tokens where user_id = ${owner.user.id}`.execute(api.db)
    const res = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(res.status, 401)
    assert.deepEqual(res.body, { errors: [{ reason: 'Invalid Token' }] })
  })
  const get = (who: TestUser, vpcId: number) =>
    api.request({ method: 'GET', url: `/v4/vpcs/${vpcId}`, headers: who.headers })

  it('answers a VPC with the same bytes again, and each change to it, its subnets and interfaces at once', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      label: 'single',
      subnets: [{ label: 'app', ipv4: '10.3.0.0/24' }],
    })
    const first = await get(owner, vpc.id)
    assert.equal(first.status, 200)
    assert.equal(Number(first.headers['content-length']), Buffer.byteLength(first.raw.body))
    assert.equal((await get(owner, vpc.id)).raw.body, first.raw.body)
    await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}`,
      headers: owner.headers,
      payload: { label: 'renamed' },
    })
    assert.equal((await get(owner, vpc.id)).body.label, 'renamed')
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const attached = (await get(owner, vpc.id)).body.subnets[0].linodes
    assert.equal(attached[0]?.id, instance.id)
    assert.equal(attached[0]?.interfaces[0]?.active, true)
    await power(api, owner, instance.id, 'shutdown')
    assert.equal((await get(owner, vpc.id)).body.subnets[0].linodes[0]?.interfaces[0]?.active, false)
  })

  it('refuses another account’s VPC and an ungranted one though it is kept, and a VPC deleted elsewhere', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const member = await createUser(api, owner)
    const vpc = await createVpc(api, owner)
    assert.equal((await get(owner, vpc.id)).status, 200)
    const notFound = { errors: [{ reason: 'Not found' }] }
    const elsewhere = await get(other, vpc.id)
    assert.equal(elsewhere.status, 404)
    assert.deepEqual(elsewhere.body, notFound)
    const ungranted = await get(member, vpc.id)
    assert.equal(ungranted.status, 403)
    assert.deepEqual(ungranted.body, { errors: [{ reason: 'Unauthorized' }] })
    await grantEntity(api, member, 'vpc', vpc.id, 'read_only')
    assert.equal((await get(member, vpc.id)).status, 200)
    await sql`delete from vpcs where id = ${vpc.id}`.execute(api.db)
    const gone = await get(owner, vpc.id)
    assert.equal(gone.status, 404)
    assert.deepEqual(gone.body, notFound)
  })
})
