import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { testPostgresUrl } from '../../helpers/dialects.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { postgresUrlForSchema, type ServerProcess, startServerProcess } from '../../helpers/processes.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

interface Reply {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
  body: any
}

/** Two API processes on one PostgreSQL schema, requests alternating between them. */
describe('VPC invariants with two API processes on one PostgreSQL database', {
  skip: !onPostgres && 'PostgreSQL run only',
}, () => {
  const api = useTestApp()
  let servers: ServerProcess[] = []
  let owner: TestUser

  before(async () => {
    const url = postgresUrlForSchema(testPostgresUrl(), api.schema as string)
    servers = await Promise.all([1, 2].map(() => startServerProcess({ DATABASE_URL: url })))
    owner = await createAccount(api)
  })
  after(() => Promise.all(servers.map((s) => s.stop())))

  async function call(i: number, method: string, path: string, payload?: object): Promise<Reply> {
    const server = servers[i % servers.length] as ServerProcess
    const res = await fetch(`${server.baseUrl}/v4${path}`, {
      method,
      headers: { ...owner.headers, ...(payload && { 'content-type': 'application/json' }) },
      ...(payload && { body: JSON.stringify(payload) }),
    })
    return { status: res.status, body: await res.json() }
  }

  const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort()

  it('of overlapping subnets sent to both processes at once, exactly one is created', async () => {
    const vpc = (await call(0, 'POST', '/vpcs', { label: 'overlap', region: 'us-iad' })).body
    const ranges = ['10.0.0.0/8', '10.0.0.0/12', '10.0.0.0/16', '10.0.0.0/20', '10.0.0.0/24', '10.0.0.0/28']
    const replies = await Promise.all(
      ranges.map((ipv4, i) => call(i, 'POST', `/vpcs/${vpc.id}/subnets`, { label: `s${i}`, ipv4 })),
    )
    assert.deepEqual(statuses(replies), [200, 400, 400, 400, 400, 400])
    const list = await call(1, 'GET', `/vpcs/${vpc.id}/subnets`)
    assert.equal(list.body.results, 1)
  })

  it('of same-label VPCs sent to both processes at once, exactly one is created', async () => {
    const regions = ['us-iad', 'us-ord', 'fr-par', 'us-sea', 'br-gru', 'nl-ams']
    const replies = await Promise.all(
      regions.map((region, i) => call(i, 'POST', '/vpcs', { label: 'twin', region })),
    )
    assert.deepEqual(statuses(replies), [200, 400, 400, 400, 400, 400])
    for (const r of replies.filter((x) => x.status === 400)) {
      assert.deepEqual(r.body, {
        errors: [{ reason: 'Label must be unique among your VPCs', field: 'label' }],
      })
    }
  })

  it('an 11th subnet racing the 10th: one is created, the VPC ends with 10', async () => {
    const vpc = (await call(0, 'POST', '/vpcs', { label: 'crowded', region: 'us-ord' })).body
    for (let i = 0; i < 9; i++) {
      const r = await call(i, 'POST', `/vpcs/${vpc.id}/subnets`, { label: `s${i}`, ipv4: `10.0.${i}.0/24` })
      assert.equal(r.status, 200)
    }
    const replies = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        call(i, 'POST', `/vpcs/${vpc.id}/subnets`, { label: `late${i}`, ipv4: `10.1.${i}.0/24` }),
      ),
    )
    assert.deepEqual(statuses(replies), [200, 400, 400, 400])
    const fetched = await call(1, 'GET', `/vpcs/${vpc.id}`)
    assert.equal(fetched.body.subnets.length, 10)
  })

  it('a subnet deleted on one process while the other attaches an interface: never both', async () => {
    const instance = (await call(0, 'POST', '/compute/instances', { type: 'g6-nanode-1', region: 'us-iad' }))
      .body
    const config = (
      await call(1, 'POST', `/compute/instances/${instance.id}/configs`, { label: 'cfg', devices: {} })
    ).body
    for (let round = 0; round < 3; round++) {
      const vpc = (
        await call(0, 'POST', '/vpcs', {
          label: `race-${round}`,
          region: 'us-iad',
          subnets: [{ label: 'contested', ipv4: '10.0.0.0/24' }],
        })
      ).body
      const subnet = vpc.subnets[0]
      const [attach, remove] = await Promise.all([
        call(round, 'POST', `/compute/instances/${instance.id}/configs/${config.id}/interfaces`, {
          purpose: 'vpc',
          subnet_id: subnet.id,
        }),
        call(round + 1, 'DELETE', `/vpcs/${vpc.id}/subnets/${subnet.id}`),
      ])
      assert.deepEqual([attach.status, remove.status].sort(), [200, 400])
      if (attach.status === 200) {
        await call(
          0,
          'DELETE',
          `/compute/instances/${instance.id}/configs/${config.id}/interfaces/${attach.body.id}`,
        )
      }
    }
  })
})
