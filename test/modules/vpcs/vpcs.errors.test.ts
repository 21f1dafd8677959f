import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { setVpcsPerRegion } from '../../../src/modules/vpcs/vpc-limits.repository.ts'
import { createInstance, createVpc, power } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'

const CHARS = 'Label must include only ASCII letters, numbers, and dashes'

describe('VPC refusals', () => {
  const api = useTestApp()

  const create = async (headers: Record<string, string>, payload: unknown) =>
    api.request({ method: 'POST', url: '/v4/vpcs', headers, payload: payload as object })

  it('refuses labels outside 1-64 ASCII letters, digits and single dashes', async () => {
    const owner = await createAccount(api)
    const cases: Array<[unknown, string]> = [
      ['my vpc', CHARS],
      ['my_vpc', CHARS],
      ['vpc.1', CHARS],
      ['café', CHARS],
      ['a--b', 'Label must not contain two dashes in a row'],
      ['', 'label must be 1-64 characters'],
      ['x'.repeat(65), 'label must be 1-64 characters'],
      [42, 'label must be a string'],
    ]
    for (const [value, reason] of cases) {
      const res = await create(owner.headers, { label: value, region: 'us-iad' })
      assert.equal(res.status, 400, String(value))
      assert.deepEqual(res.body, { errors: [{ field: 'label', reason }] }, String(value))
    }
    const ok = await create(owner.headers, { label: `-${'x'.repeat(62)}-`, region: 'us-iad' })
    assert.equal(ok.status, 200, 'single dashes anywhere and 64 characters are fine')
  })

  it('refuses a label already used by another VPC of the account, in any region', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner, { label: 'taken', region: 'us-iad' })
    const res = await create(owner.headers, { label: 'taken', region: 'us-ord' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Label must be unique among your VPCs', field: 'label' }],
    })
    const other = await createAccount(api)
    assert.equal((await create(other.headers, { label: 'taken', region: 'us-iad' })).status, 200)
  })

  it('refuses a description over 255 characters', async () => {
    const owner = await createAccount(api)
    const res = await create(owner.headers, { label: 'd', region: 'us-iad', description: 'x'.repeat(256) })
    assert.deepEqual(res.body, {
      errors: [{ field: 'description', reason: 'description must be at most 255 characters' }],
    })
    assert.equal(
      (await create(owner.headers, { label: 'd', region: 'us-iad', description: 'x'.repeat(255) })).status,
      200,
    )
  })

  it('refuses a missing, unknown or VPC-less region', async () => {
    const owner = await createAccount(api)
    const missing = await create(owner.headers, { label: 'r' })
    assert.deepEqual(missing.body, { errors: [{ field: 'region', reason: 'region is required' }] })
    const unknown = await create(owner.headers, { label: 'r', region: 'xx-nowhere' })
    assert.deepEqual(unknown.body, { errors: [{ reason: 'Region not found', field: 'region' }] })
    const noVpcs = await create(owner.headers, { label: 'r', region: 'us-east' })
    assert.deepEqual(noVpcs.body, { errors: [{ reason: 'Region does not support VPCs', field: 'region' }] })
  })

  it('reports every problem of a request together', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner, { label: 'dup' })
    const schema = await create(owner.headers, { label: 'a b', description: 7, subnets: [{ label: 'x' }] })
    assert.equal(schema.status, 400)
    assert.deepEqual(schema.body.errors.map((e: { field: string }) => e.field).sort(), [
      'description',
      'label',
      'region',
      'subnets[0].ipv4',
    ])
    const rules = await create(owner.headers, {
      label: 'dup',
      region: 'us-east',
      subnets: [{ label: 'x', ipv4: '8.8.8.0/24' }],
    })
    assert.deepEqual(
      rules.body.errors.map((e: { field: string }) => e.field),
      ['label', 'region', 'subnets[0].ipv4'],
    )
  })

  it('allows 10 VPCs per region per account, and an operator can raise that', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 10; i++) await createVpc(api, owner, { region: 'us-sea' })
    const eleventh = await create(owner.headers, { label: 'eleventh', region: 'us-sea' })
    assert.equal(eleventh.status, 400)
    assert.deepEqual(eleventh.body, {
      errors: [{ reason: 'You can have at most 10 VPCs in region us-sea', field: 'region' }],
    })
    assert.equal((await create(owner.headers, { label: 'elsewhere', region: 'us-ord' })).status, 200)
    const other = await createAccount(api)
    assert.equal((await create(other.headers, { label: 'theirs', region: 'us-sea' })).status, 200)

    await setVpcsPerRegion(api.db, owner.accountId, 12)
    assert.equal((await create(owner.headers, { label: 'eleventh', region: 'us-sea' })).status, 200)
    assert.equal((await create(owner.headers, { label: 'twelfth', region: 'us-sea' })).status, 200)
    assert.equal((await create(owner.headers, { label: 'thirteenth', region: 'us-sea' })).status, 400)
  })

  describe('subnets in the create request', () => {
    it('creates nothing when one subnet is bad, naming it by index', async () => {
      const owner = await createAccount(api)
      const res = await create(owner.headers, {
        label: 'atomic',
        region: 'us-iad',
        subnets: [
          { label: 'good', ipv4: '10.0.0.0/24' },
          { label: 'bad', ipv4: '10.0.1.1/24' },
        ],
      })
      assert.equal(res.status, 400)
      assert.deepEqual(res.body, {
        errors: [
          {
            reason: 'Must be a canonical CIDR with the host bits zero, e.g. 10.0.1.0/24',
            field: 'subnets[1].ipv4',
          },
        ],
      })
      const list = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
      assert.equal(list.body.results, 0)
      const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
      assert.equal(events.body.results, 0)
    })

    it('refuses subnets of one request that overlap each other or share a label', async () => {
      const owner = await createAccount(api)
      const res = await create(owner.headers, {
        label: 'clash',
        region: 'us-iad',
        subnets: [
          { label: 'big', ipv4: '10.0.0.0/16' },
          { label: 'inside', ipv4: '10.0.5.0/24' },
          { label: 'big', ipv4: '10.1.0.0/16' },
        ],
      })
      assert.deepEqual(res.body, {
        errors: [
          { reason: 'Overlaps subnet big (10.0.0.0/16) of this VPC', field: 'subnets[1].ipv4' },
          { reason: 'Label must be unique among the subnets of this VPC', field: 'subnets[2].label' },
        ],
      })
    })

    it('refuses more than 10 subnets and bad subnet fields by index', async () => {
      const owner = await createAccount(api)
      const eleven = Array.from({ length: 11 }, (_, i) => ({ label: `s${i}`, ipv4: `10.0.${i}.0/24` }))
      const tooMany = await create(owner.headers, { label: 'many', region: 'us-iad', subnets: eleven })
      assert.deepEqual(tooMany.body, {
        errors: [{ field: 'subnets', reason: 'subnets must have at most 10 items' }],
      })
      const ten = await create(owner.headers, {
        label: 'ten',
        region: 'us-iad',
        subnets: eleven.slice(0, 10),
      })
      assert.equal(ten.status, 200)
      const fields = await create(owner.headers, {
        label: 'fields',
        region: 'us-iad',
        subnets: [{ label: 'a_b', ipv4: '10.0.0.0/33' }],
      })
      assert.deepEqual(fields.body, {
        errors: [
          { field: 'subnets[0].label', reason: CHARS },
          { field: 'subnets[0].ipv4', reason: 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24' },
        ],
      })
    })
  })

  it('refuses an update to a label in use, or a bad one; unknown VPCs are 404', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner, { label: 'first' })
    const second = await createVpc(api, owner, { label: 'second' })
    const clash = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${second.id}`,
      headers: owner.headers,
      payload: { label: 'first' },
    })
    assert.deepEqual(clash.body, {
      errors: [{ reason: 'Label must be unique among your VPCs', field: 'label' }],
    })
    const bad = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${second.id}`,
      headers: owner.headers,
      payload: { label: 'no--no', description: 'x'.repeat(256) },
    })
    assert.deepEqual(
      bad.body.errors.map((e: { field: string }) => e.field),
      ['label', 'description'],
    )
    for (const url of ['/v4/vpcs/999999', '/v4/vpcs/05', '/v4/vpcs/abc', '/v4/vpcs/99999999999999999999']) {
      const res = await api.request({ method: 'GET', url, headers: owner.headers })
      assert.equal(res.status, 404, url)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
    }
  })

  it('refuses to delete a VPC while a subnet is in use, deleting nothing', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'free', ipv4: '10.0.0.0/24' },
        { label: 'used', ipv4: '10.0.1.0/24' },
      ],
    })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[1].id }],
    })
    const running = await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(running.status, 400)
    assert.deepEqual(running.body, {
      errors: [
        {
          reason: `Subnet used (${vpc.subnets[1].id}) is assigned to config interfaces of Compute ${instance.id}; shut down the Compute and delete those interfaces first`,
        },
      ],
    })
    await power(api, owner, instance.id, 'shutdown')
    const stopped = await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(stopped.status, 400)
    assert.match(stopped.body.errors[0].reason, /; delete those interfaces first$/)
    const still = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(still.body.subnets.length, 2, 'no subnet was deleted')
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ '+or': [{ action: 'vpc_delete' }, { action: 'subnet_delete' }] }),
      },
    })
    assert.equal(events.body.results, 0)
  })
})
