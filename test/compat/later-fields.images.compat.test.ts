import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { type TestApp, useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { LATER_PRIVATE_IMAGE_KEYS } from '../helpers/wire-keys.ts'
import { clientFunction as call, connectClient } from './client.ts'

/** An upload's create request, as sent: the tests look at refusals too. */
const postUpload = (api: TestApp, owner: TestUser, label: string, tags: unknown) =>
  api.request({
    method: 'POST',
    url: '/v4/images/upload',
    headers: owner.headers,
    payload: { label, region: 'us-east', tags },
  })

const LATER = ['tags', 'total_size', 'regions']

/**
 * An image's `tags`, `total_size` and `regions`, which the real service added after the document's
 * version and the official client's types require: kept and sent under the real naming
 * (docs/decisions.md, "Fields of later versions"). Tags come back sorted, each once, as the real
 * service answers them.
 */
describe('compatibility: @linode/api-v4, image tags, size and regions in linode naming', () => {
  const api = useTestApp({ naming: 'linode' })
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('keeps the tags of an upload and answers them alike in every read', async () => {
    const { image } = await call('uploadImage')({
      label: 'tagged-upload',
      region: 'us-east',
      tags: ['zeta', 'alpha', 'zeta'],
    })
    assert.deepEqual(Object.keys(image), LATER_PRIVATE_IMAGE_KEYS)
    assert.deepEqual(image.tags, ['alpha', 'zeta'])
    assert.equal(image.total_size, 0)
    assert.deepEqual(image.regions, [{ region: 'us-east', status: 'pending' }])
    const read = await call('getImage')(image.id)
    assert.deepEqual(read, image)
    // The list is rendered by the database: the same text as the answer by id, twice (once kept).
    for (let i = 0; i < 2; i++) {
      const listed = await call('getImages')({}, { label: 'tagged-upload' })
      assert.deepEqual(listed.data, [read])
    }
  })

  it('changes tags with an update, and keeps them through an update without them', async () => {
    const { image } = await call('uploadImage')({ label: 'retagged', region: 'us-east', tags: ['first'] })
    const changed = await call('updateImage')(image.id, { tags: ['second', 'other'] })
    assert.deepEqual(changed.tags, ['other', 'second'])
    const relabelled = await call('updateImage')(image.id, { label: 'retagged-again' })
    assert.deepEqual(relabelled.tags, ['other', 'second'])
    const events = await call('getEvents')(
      {},
      { action: 'image_update', 'entity.id': Number(image.id.split('/')[1]) },
    )
    assert.equal(events.data.length, 2)
    const cleared = await call('updateImage')(image.id, { tags: [] })
    assert.deepEqual(cleared.tags, [])
    assert.deepEqual((await call('getImages')({}, { label: 'retagged-again' })).data[0].tags, [])
  })

  it("gives a captured image the disk's size in its instance's region, creating and then available", async () => {
    const instance = await call('createLinode')({
      region: 'us-ord',
      type: 'g6-nanode-1',
      image: 'linode/debian12',
      root_pass: 'correct-Horse-battery-9',
    })
    const disk = (await call('getLinodeDisks')(instance.id)).data.find(
      (d: { filesystem: string }) => d.filesystem === 'ext4',
    )
    const image = await call('createImage')({ disk_id: disk.id, tags: ['captured'] })
    assert.deepEqual(Object.keys(image), LATER_PRIVATE_IMAGE_KEYS)
    assert.deepEqual(image.tags, ['captured'])
    assert.equal(image.total_size, disk.size)
    assert.deepEqual(image.regions, [{ region: 'us-ord', status: 'creating' }])
    await api.app.jobs.runPendingJobs()
    const done = await call('getImage')(image.id)
    assert.equal(done.status, 'available')
    assert.deepEqual(done.regions, [{ region: 'us-ord', status: 'available' }])
    assert.deepEqual((await call('getImages')({}, { label: image.label })).data, [done])
  })

  it('gives public images no tags and no regions of their own, and their size as the total', async () => {
    const image = await call('getImage')('linode/debian12')
    assert.deepEqual(image.tags, [])
    assert.deepEqual(image.regions, [])
    assert.equal(image.total_size, image.size)
    const listed = await call('getImages')({}, { label: image.label })
    assert.deepEqual(listed.data, [image])
  })

  it('refuses tags the real service refuses, naming the tag', async () => {
    for (const [tags, field] of [
      [['ab'], 'tags[0]'],
      [['fine', 'x'.repeat(51)], 'tags[1]'],
      ['notalist', 'tags'],
    ] as const) {
      const res = await postUpload(api, owner, 'bad-tags', tags)
      assert.equal(res.status, 400, JSON.stringify(res.body))
      assert.equal(res.body.errors[0].field, field, JSON.stringify(res.body))
    }
    const tags = Array.from({ length: 101 }, (_, i) => `tag-${i}`)
    const many = await postUpload(api, owner, 'bad-tags', tags)
    assert.equal(many.status, 400)
  })
})

describe('document naming: images without the later fields', () => {
  const api = useTestApp({ naming: 'document' })

  it('neither sends nor keeps them: tags sent are ignored', async () => {
    const owner = await createAccount(api)
    const upload = await postUpload(api, owner, 'doc-image', ['ignored'])
    assert.equal(upload.status, 200, JSON.stringify(upload.body))
    const id = upload.body.image.id as string
    const answers = [
      upload.body.image,
      (
        await api.request({
          method: 'GET',
          url: `/v4/images/${encodeURIComponent(id)}`,
          headers: owner.headers,
        })
      ).body,
      (await api.request({ method: 'GET', url: '/v4/images', headers: owner.headers })).body.data[0],
      (await api.request({ method: 'GET', url: '/v4/images/compute/debian12' })).body,
    ]
    for (const answer of answers) {
      for (const key of LATER) assert.equal(key in answer, false, `${key} in ${JSON.stringify(answer)}`)
    }
    const row = await api.db
      .selectFrom('images')
      .select('tags')
      .where('id', '=', Number(id.split('/')[1]))
      .executeTakeFirstOrThrow()
    assert.equal(row.tags, '[]')
    // Nor checked: the document's version does not know the field.
    for (const tags of ['notalist', ['ab'], [null]]) {
      const res = await postUpload(api, owner, 'doc-unchecked', tags)
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.equal('tags' in res.body.image, false)
    }
  })
})
