import assert from 'node:assert/strict'
import { once } from 'node:events'
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { useTestApp } from '../helpers/app.ts'
import { createAccount } from '../helpers/factories.ts'

// The code has no key prefix setting (nameSpace is fixed): this probe uses a Redis database of its
// own (11), reached through a TCP relay it can cut, and never flushes anything.
const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379')

/** A relay to Redis that the test can take away (every connection cut, new ones refused) and bring back. */
function redisRelay() {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  return {
    get url() {
      return `redis://127.0.0.1:${port}/11`
    },
    async up() {
      server = createServer((client) => {
        const upstream = connect(Number(REDIS.port || 6379), REDIS.hostname)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('error', () => {})
          s.on('close', () => sockets.delete(s))
        }
        client.pipe(upstream).pipe(client)
      })
      server.listen(port, '127.0.0.1')
      await once(server, 'listening')
      port = (server.address() as AddressInfo).port
    },
    async down() {
      const closing = server
      server = undefined
      for (const s of sockets) s.destroy()
      if (closing) await new Promise((resolve) => closing.close(resolve))
    },
  }
}

/**
 * With Redis out of reach, calls are let through at once and without rate-limit headers (a budget
 * nobody counts is not announced); once it is back, counting resumes where it was. Bounded loops
 * wait for the client to notice either change (no duration is asserted).
 */
describe('real rate limits counted in Redis, when Redis goes away mid-run', () => {
  const relay = redisRelay()
  before(() => relay.up())
  after(() => relay.down())
  const api = useTestApp(() => ({ rateLimits: { mode: 'real', redisUrl: relay.url } }))

  it('lets calls through without announcing a budget, then counts again', async () => {
    const owner = await createAccount(api)
    const list = async () => {
      const res = await api.request({ method: 'GET', url: '/v4/images', headers: owner.headers })
      assert.equal(res.status, 200, 'let through, never a 5xx')
      return res.headers['x-ratelimit-remaining']
    }
    let remaining: unknown
    for (let i = 0; i < 3; i++) remaining = await list()
    assert.equal(remaining, '17', 'counted in Redis')
    await relay.down()
    try {
      for (let i = 0; i < 200 && remaining !== undefined; i++) {
        remaining = await list()
        if (remaining !== undefined) await sleep(25)
      }
      assert.equal(remaining, undefined, 'no budget announced while nothing counts')
      assert.equal(await list(), undefined)
    } finally {
      await relay.up()
    }
    for (let i = 0; i < 200 && remaining === undefined; i++) {
      remaining = await list()
      if (remaining === undefined) await sleep(25)
    }
    assert.ok(Number(remaining) <= 16, `counting resumed where it was: ${String(remaining)} left`)
  })
})
