import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, createServer, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { AdjustableClock } from '../../src/common/time.ts'
import { createDb, type Db } from '../../src/db/connect.ts'
import { buildTestApp, type TestApp, testNaming } from '../helpers/app.ts'
import { testDialect, testPostgresUrl } from '../helpers/dialects.ts'

const onPostgres = testDialect() === 'postgres'

/**
 * A TCP relay to PostgreSQL that can go silent for the connection that LISTENs: what a network
 * cut without a reset (a failover behind a NAT or a load balancer, a cable pulled) looks like
 * from the process, the connection neither answers nor closes.
 */
class Relay {
  server: Server
  sockets = new Set<Socket>()
  listeners = new Set<Socket>()
  silent = false
  constructor(target: URL) {
    this.server = createServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname)
      this.sockets.add(client).add(upstream)
      let listening = false
      client.on('data', (chunk) => {
        if (!listening && chunk.toString('latin1').includes('listen cloudplane_change_counters')) {
          listening = true
          this.listeners.add(client)
        }
        if (!(this.silent && listening)) upstream.write(chunk)
      })
      upstream.on('data', (chunk) => {
        if (!(this.silent && listening)) client.write(chunk)
      })
      const end = () => {
        client.destroy()
        upstream.destroy()
      }
      client.on('error', end).on('close', end)
      upstream.on('error', end).on('close', end)
    })
  }
  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1')
    await once(this.server, 'listening')
    return (this.server.address() as { port: number }).port
  }
  async close() {
    for (const s of this.sockets) s.destroy()
    this.server.close()
  }
}

describe('the catalogue listener cut without a reset', { skip: !onPostgres && 'PostgreSQL only' }, () => {
  let first: TestApp
  let relay: Relay
  let db: Db
  let second: FastifyInstance

  before(async () => {
    first = await buildTestApp()
    const target = new URL(testPostgresUrl())
    relay = new Relay(target)
    const port = await relay.listen()
    const via = new URL(testPostgresUrl())
    via.hostname = '127.0.0.1'
    via.port = String(port)
    db = createDb({ kind: 'postgres', location: via.toString(), schema: first.schema as string })
    second = await buildApp({ naming: testNaming(), db, clock: new AdjustableClock() })
    await second.ready()
  })

  after(async () => {
    await second?.close()
    await relay?.close()
    await db?.destroy().catch(() => {})
    await first?.close()
  })

  const statusOn = async (app: FastifyInstance, id: string) =>
    JSON.parse((await app.inject({ url: `/v4/regions/${id}` })).body).status as string

  it('a region marked down elsewhere shows on the process whose listener went silent', async () => {
    const id = 'us-ord'
    // The listener is up and the region is kept as rendered.
    for (let i = 0; i < 50 && relay.listeners.size === 0; i++) {
      await statusOn(second, id)
      await sleep(20)
    }
    assert.ok(relay.listeners.size > 0, 'the second app listens')
    await sleep(200)
    assert.equal(await statusOn(second, id), 'ok')
    relay.silent = true
    // As an operator's SQL client (or `cloudplane region status`) would.
    await first.db.updateTable('regions').set({ status: 'outage' }).where('id', '=', id).execute()
    assert.equal(await statusOn(first.app, id), 'outage', 'the first app sees it')
    // Shown "a moment late" at most: give it far longer than any of the server's own timers.
    let seen = 'ok'
    for (let attempt = 0; attempt < 300 && seen !== 'outage'; attempt++) {
      seen = await statusOn(second, id)
      if (seen !== 'outage') await sleep(100)
    }
    assert.equal(seen, 'outage', 'the change never showed on the process whose listener went silent')
  })
})
