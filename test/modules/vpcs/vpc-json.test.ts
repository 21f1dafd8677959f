import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import fc from 'fast-check'
import { insertSubnet } from '../../../src/modules/vpcs/subnets/subnets.repository.ts'
import { setVpcsPerRegion } from '../../../src/modules/vpcs/vpc-limits.repository.ts'
import { findAccountVpcJson, insertVpc } from '../../../src/modules/vpcs/vpcs.repository.ts'
import { createInstance, createVpc, firstConfig } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

/**
 * VPC reads are rendered to JSON by the database (vpc-json.ts). Whatever the stored text, the
 * bytes must be those JSON.stringify gives for the wire object, key order included.
 */
describe('VPC JSON rendered by the database', () => {
  const api = useTestApp()
  let owner: TestUser
  let configId: number
  before(async () => {
    owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    configId = (await firstConfig(api, owner, instance.id)).id
  })

  const text = fc.string({
    unit: fc.constantFrom(
      'a',
      'é',
      '"',
      '\\',
      '\n',
      '\t',
      '/',
      '<',
      '😀',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u2028',
      ' ',
    ),
    maxLength: 8,
  })
  const timestamp = fc
    .date({
      min: new Date('2020-01-01T00:00:00Z'),
      max: new Date('2030-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 19))
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null })
  const subnetArb = fc.record({
    label: text,
    ipv4: text,
    created: timestamp,
    updated: maybe(timestamp),
    interfaces: fc.array(fc.record({ instance: fc.integer({ min: 1, max: 3 }), active: fc.boolean() }), {
      maxLength: 4,
    }),
  })
  const vpcArb = fc.record({
    label: text,
    description: text,
    region: text,
    created: timestamp,
    updated: maybe(timestamp),
    subnets: fc.uniqueArray(subnetArb, { maxLength: 3, selector: (s) => s.label }),
  })

  it('matches JSON.stringify of the wire object for any stored VPC, alone and in a page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(vpcArb, { minLength: 1, maxLength: 3 }), async (vpcs) => {
        const account = await createAccount(api)
        const expected: unknown[] = []
        for (const [i, v] of vpcs.entries()) {
          // Labels are unique per account; the index keeps generated ones apart.
          const label = `${v.label}${i}`
          // Through the repositories: they store the JSON parts the query renders from.
          const { id } = await insertVpc(api.db, {
            account_id: account.accountId,
            label,
            description: v.description,
            region: v.region,
            created: v.created,
            updated: v.updated,
          })
          const subnets = []
          for (const s of v.subnets) {
            const row = await insertSubnet(api.db, {
              vpc_id: id,
              label: s.label,
              ipv4: s.ipv4,
              created: s.created,
              updated: s.updated,
            })
            const linodes: Array<{ id: number; interfaces: Array<{ id: number; active: boolean }> }> = []
            for (const [position, iface] of s.interfaces.entries()) {
              const inserted = await api.db
                .insertInto('compute_interfaces')
                .values({
                  config_id: configId,
                  instance_id: iface.instance,
                  position,
                  purpose: 'vpc',
                  label: null,
                  ipam_address: null,
                  is_primary: false,
                  active: iface.active,
                  vpc_id: id,
                  subnet_id: row.id,
                  ipv4_vpc: null,
                  nat_1_1: null,
                })
                .returning('id')
                .executeTakeFirstOrThrow()
              let linode = linodes.find((l) => l.id === iface.instance)
              if (linode === undefined) {
                linode = { id: iface.instance, interfaces: [] }
                linodes.push(linode)
              }
              linode.interfaces.push({ id: inserted.id, active: iface.active })
            }
            linodes.sort((a, b) => a.id - b.id)
            subnets.push({
              id: row.id,
              label: s.label,
              ipv4: s.ipv4,
              linodes,
              created: s.created,
              updated: s.updated,
            })
          }
          const vpc = {
            id,
            label,
            description: v.description,
            region: v.region,
            subnets,
            created: v.created,
            updated: v.updated,
          }
          expected.push(vpc)
          const find = (laterFields: boolean, stamped = false) =>
            findAccountVpcJson(api.db, account.accountId, id, { laterFields, stamped })
          assert.equal((await find(false)).json, JSON.stringify(vpc))
          // With the fields of later versions (the real naming), each interface names its profile.
          const later = {
            ...vpc,
            subnets: subnets.map(({ created, updated, ...s }) => ({
              ...s,
              linodes: s.linodes.map((l) => ({
                ...l,
                interfaces: l.interfaces.map((i) => ({ ...i, config_id: configId })),
              })),
              nodebalancers: [],
              created,
              updated,
            })),
          }
          assert.equal((await find(true)).json, JSON.stringify(later))
          // The statement that also reads the credentials counter renders the same text.
          const stamped = await find(false, true)
          assert.equal(stamped.json, JSON.stringify(vpc))
          assert.equal(typeof stamped.stamp, 'number')
          const one = await api.request({ method: 'GET', url: `/v4/vpcs/${id}`, headers: account.headers })
          assert.equal(one.raw.body, JSON.stringify(vpc))
        }
        const page = await api.request({ method: 'GET', url: '/v4/vpcs', headers: account.headers })
        assert.equal(page.headers['content-type'], 'application/json; charset=utf-8')
        assert.equal(
          page.raw.body,
          JSON.stringify({ data: expected, page: 1, pages: 1, results: expected.length }),
        )
      }),
      { numRuns: 40 },
    )
  })

  it('answers an empty list with page 1 of 1, and a page past the end with the last page', async () => {
    const account = await createAccount(api)
    const list = (query: string) =>
      api.request({ method: 'GET', url: `/v4/vpcs${query}`, headers: account.headers })
    assert.equal((await list('')).raw.body, '{"data":[],"page":1,"pages":1,"results":0}')
    await setVpcsPerRegion(api.db, account.accountId, 100)
    const ids: number[] = []
    for (let i = 0; i < 27; i++) {
      const vpc = await createVpc(api, account, { label: `page-${i}` })
      ids.push(vpc.id)
    }
    // However far past: the document answers pages beyond 2^64 / page_size with the last page.
    for (const page of ['5', '9007199254740993', '18446744073709551616', `1${'0'.repeat(400)}`]) {
      const past = await list(`?page=${page}&page_size=25`)
      assert.equal(past.status, 200, page)
      assert.deepEqual(
        { ...past.body, data: past.body.data.map((v: { id: number }) => v.id) },
        { data: ids.slice(25), page: 2, pages: 2, results: 27 },
      )
    }
    const first = await list('?page=1&page_size=25')
    assert.deepEqual(
      first.body.data.map((v: { id: number }) => v.id),
      ids.slice(0, 25),
    )
  })
})
