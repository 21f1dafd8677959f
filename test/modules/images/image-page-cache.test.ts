import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { createImage } from './image-helpers.ts'

/**
 * An image page asked for with a token is kept as sent while no image changed since it was
 * rendered (common/rendered-page-cache.ts). Whatever changes, public or private, through the API
 * or not, the next answer must be the one the database gives now.
 */
describe('image pages kept as sent', () => {
  const api = useTestApp()

  const list = async (who: TestUser) => {
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: who.headers })
    assert.equal(res.status, 200)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.raw.body))
    return res
  }
  const labelOf = (res: { body: { data: Array<{ id: string; label: string }> } }, id: string) =>
    res.body.data.find((i) => i.id === id)?.label

  it('answers the same bytes again, and each change at once', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const first = await list(owner)
    assert.equal((await list(owner)).raw.body, first.raw.body)
    const image = await createImage(api, owner, 'mine')
    const withImage = await list(owner)
    assert.equal(withImage.body.results, first.body.results + 1)
    assert.equal(labelOf(withImage, image.id), 'mine')
    assert.equal((await list(other)).body.results, first.body.results, 'another account sees its own page')

    await api.request({
      method: 'PUT',
      url: `/v4/images/${encodeURIComponent(image.id)}`,
      headers: owner.headers,
      payload: { label: 'renamed' },
    })
    assert.equal(labelOf(await list(owner), image.id), 'renamed')

    await sql`update images set label = 'from sql' where id = ${image.numericId}`.execute(api.db)
    assert.equal(labelOf(await list(owner), image.id), 'from sql')

    const publicImage = first.body.data.find((i: { is_public: boolean }) => i.is_public) as { id: string }
    const slug = publicImage.id
    const before = labelOf(first, publicImage.id)
    await sql`update images set label = 'public changed' where slug = ${slug}`.execute(api.db)
    try {
      assert.equal(labelOf(await list(owner), publicImage.id), 'public changed')
      assert.equal(labelOf(await list(other), publicImage.id), 'public changed')
    } finally {
      await sql`update images set label = ${before} where slug = ${slug}`.execute(api.db)
    }

    await api.request({
      method: 'DELETE',
      url: `/v4/images/${encodeURIComponent(image.id)}`,
      headers: owner.headers,
    })
    assert.equal((await list(owner)).raw.body, first.raw.body)
  })
})
