import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createInstance, firstConfig } from '../helpers/api-fixtures.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { testVocabulary, wireImageId, wirePath } from '../helpers/naming.ts'
import {
  EVENT_KEYS,
  INSTANCE_KEYS,
  LATER_INSTANCE_KEYS,
  LATER_PRIVATE_IMAGE_KEYS,
  LATER_PUBLIC_IMAGE_KEYS,
  PRIVATE_IMAGE_KEYS,
  PUBLIC_IMAGE_KEYS,
} from '../helpers/wire-keys.ts'
import { createImage } from '../modules/images/image-helpers.ts'

/**
 * Key order per endpoint, as recordings of the real service send it (the linodego client's
 * fixtures, test/integration/fixtures/*.yaml): a client that compares or prints raw JSON sees
 * the same text. Runs in either naming (CLOUDPLANE_TEST_NAMING).
 */
describe('key order as the real service sends it', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })
  const get = async (url: string) => {
    const res = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body
  }

  it('images: the list envelope, a public and a private image (ExampleListImages_all)', async () => {
    const list = await get('/v4/images')
    assert.deepEqual(Object.keys(list), ['pages', 'data', 'results', 'page'])
    const debian = await get(`/v4/images/${wireImageId('compute/debian12')}`)
    // The real naming sends the fields of later versions too.
    const later = testVocabulary().laterFields
    assert.deepEqual(Object.keys(debian), later ? LATER_PUBLIC_IMAGE_KEYS : PUBLIC_IMAGE_KEYS)
    const mine = await createImage(api, owner, 'mine')
    assert.deepEqual(
      Object.keys(await get(`/v4/images/${mine.id}`)),
      later ? LATER_PRIVATE_IMAGE_KEYS : PRIVATE_IMAGE_KEYS,
    )
  })

  it('instances and finished events (TestEventPoller_InstancePower)', async () => {
    const instance = await createInstance(api, owner)
    const keys = testVocabulary().laterFields ? LATER_INSTANCE_KEYS : INSTANCE_KEYS
    assert.deepEqual(Object.keys(await get(wirePath(`/v4/compute/instances/${instance.id}`))), keys)
    const events = await get('/v4/account/events')
    assert.deepEqual(Object.keys(events), ['data', 'page', 'pages', 'results'])
    const config = await firstConfig(api, owner, instance.id)
    const boot = events.data.find(
      (e: { secondary_entity: { id: unknown } | null }) => e.secondary_entity?.id === config.id,
    )
    assert.deepEqual(Object.keys(boot), EVENT_KEYS)
    assert.deepEqual(Object.keys(boot.entity), ['label', 'id', 'type', 'url'])
    assert.deepEqual(Object.keys(boot.secondary_entity), ['id', 'type', 'label', 'url'])
  })

  it('finished events carry time_remaining 0, the others null (TestEventPoller_InstancePower)', async () => {
    const instance = await createInstance(api, owner)
    const events = (await get('/v4/account/events')).data.filter(
      (e: { entity: { id: number } }) => e.entity.id === instance.id,
    )
    assert.ok(events.length > 0)
    for (const event of events) {
      assert.equal(event.time_remaining, event.status === 'finished' ? 0 : null, event.action)
    }
    // The create event, with the deployed image as its secondary entity.
    const create = events.find(
      (e: { secondary_entity: { type: string } | null }) => e.secondary_entity?.type === 'image',
    )
    assert.equal(create.secondary_entity.id, wireImageId('compute/debian12'))
    assert.equal(create.status, 'finished')
    assert.equal(create.time_remaining, 0)
  })

  it('regions (TestEventPoller_InstancePower)', async () => {
    const regions = await get('/v4/regions')
    assert.deepEqual(Object.keys(regions), ['data', 'page', 'pages', 'results'])
    assert.deepEqual(Object.keys(regions.data[0]).slice(0, 6), [
      'id',
      'label',
      'country',
      'capabilities',
      'status',
      'resolvers',
    ])
  })
})
