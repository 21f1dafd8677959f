import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { randomBytes, randomInt, randomUUID, seedRandom } from '../../../src/common/random.ts'
import { bootstrapHeaders, buildControlApp, type ControlApp } from './control-app.ts'

describe('the random source', () => {
  after(() => seedRandom(undefined))

  it('with a seed, repeats its stream exactly; another seed, another stream', () => {
    seedRandom('run-1')
    const first = [randomBytes(40).toString('hex'), randomInt(1_000_000), randomUUID()]
    seedRandom('run-1')
    assert.deepEqual([randomBytes(40).toString('hex'), randomInt(1_000_000), randomUUID()], first)
    seedRandom('run-2')
    assert.notEqual(randomBytes(40).toString('hex'), first[0])
    assert.match(randomUUID(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    for (let i = 0; i < 200; i++) {
      const n = randomInt(3, 7)
      assert.ok(n >= 3 && n < 7, String(n))
    }
  })

  it('without one, draws from the operating system', () => {
    seedRandom(undefined)
    assert.notEqual(randomBytes(32).toString('hex'), randomBytes(32).toString('hex'))
  })
})

describe('a seeded run through the API', () => {
  let one: ControlApp
  let two: ControlApp
  before(async () => {
    one = await buildControlApp()
    two = await buildControlApp()
  })
  after(async () => {
    seedRandom(undefined)
    await one.close()
    await two.close()
  })

  const generated = async (api: ControlApp) => {
    const token = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'seeded', scopes: '*' },
    })
    const upload = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: bootstrapHeaders,
      payload: { label: 'seeded', region: 'us-east' },
    })
    return [token.body.token, upload.body.upload_to]
  }

  it('two runs with the same seed hand out the same tokens and upload URLs', async () => {
    seedRandom('ci-build-42')
    const first = await generated(one)
    seedRandom('ci-build-42')
    const second = await generated(two)
    assert.equal(typeof first[0], 'string')
    assert.deepEqual(second, first)
  })
})
