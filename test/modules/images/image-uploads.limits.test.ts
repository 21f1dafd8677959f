import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, putData, rawImage, startUpload, uploadState } from './image-helpers.ts'

describe('image upload: what one account and one process may hold', () => {
  const api = useTestApp({ imageUploads: { maxPendingUploads: 2, maxConcurrentUploads: 1 } })

  const create = (headers: Record<string, string>) =>
    api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers,
      payload: { label: 'waiting', region: 'us-east' },
    })

  it('caps the images of an account waiting for their data', async () => {
    const owner = await createAccount(api)
    const first = await startUpload(api, owner)
    await startUpload(api, owner)
    const third = await create(owner.headers)
    assert.equal(third.status, 400)
    assert.deepEqual(third.body, {
      errors: [{ reason: 'At most 2 images may wait for their data at once; upload or delete those first' }],
    })
    const other = await createAccount(api)
    assert.equal((await create(other.headers)).status, 200, 'the cap is per account')
    assert.equal((await putData(api, first.path, gz(rawImage(4096)))).status, 200)
    assert.equal((await create(owner.headers)).status, 200, 'an uploaded image frees its place')
  })

  it('holds creates sent at once to the same cap', async () => {
    const owner = await createAccount(api)
    const answers = await Promise.all(Array.from({ length: 10 }, () => create(owner.headers)))
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, ...Array(8).fill(400)])
  })

  it('receives a bounded number of uploads at once: one more is 503 and may retry', async () => {
    const owner = await createAccount(api)
    const streaming = await startUpload(api, owner)
    const waiting = await startUpload(api, owner)
    const body = new PassThrough()
    const pending = putData(api, streaming.path, body)
    const data = gz(rawImage(8192))
    body.write(data.subarray(0, 100))
    await waitFor(async () => (await uploadState(api, streaming.image.id)) === 'receiving')
    const refused = await putData(api, waiting.path, gz(rawImage(4096)))
    assert.equal(refused.status, 503)
    assert.ok(refused.headers['retry-after'])
    assert.deepEqual(refused.body, {
      errors: [{ reason: 'Too many image uploads are in progress; retry shortly' }],
    })
    body.end(data.subarray(100))
    assert.equal((await pending).status, 200)
    assert.equal((await putData(api, waiting.path, gz(rawImage(4096)))).status, 200)
  })
})
