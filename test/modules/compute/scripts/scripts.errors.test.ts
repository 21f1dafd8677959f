import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ROOT_PASS } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'
import { testVocabulary, wireImageId, wirePath } from '../../../helpers/naming.ts'
import { createScript, SCRIPT_WITH_FIELDS, SCRIPTS } from './script-fixtures.ts'

describe('scripts: refusals', () => {
  const api = useTestApp()

  const create = (who: TestUser, payload: object) =>
    api.request({ method: 'POST', url: SCRIPTS, headers: who.headers, payload })
  const valid = () => ({
    label: 'valid',
    script: SCRIPT_WITH_FIELDS,
    images: [wireImageId('compute/debian12')],
  })
  const errorsOf = (body: { errors: Array<{ field?: string; reason: string }> }) =>
    body.errors.map((e) => [e.field, e.reason])

  it('refuses each script rule with its field', async () => {
    const owner = await createAccount(api)
    const cases: Array<[object, string]> = [
      [{ label: 'ab' }, 'label'],
      [{ label: 'x'.repeat(129) }, 'label'],
      [{ script: '' }, 'script'],
      [{ script: 'echo no shebang' }, 'script'],
      [{ images: [] }, 'images'],
      [{ images: [wireImageId('compute/nonexistent')] }, 'images[0]'],
      [{ is_public: 'yes' }, 'is_public'],
    ]
    for (const [change, field] of cases) {
      const res = await create(owner, { ...valid(), ...change })
      assert.equal(res.status, 400, JSON.stringify(change))
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        [field],
        JSON.stringify(change),
      )
    }
    for (const missing of ['label', 'script', 'images']) {
      const payload: Record<string, unknown> = valid()
      delete payload[missing]
      const res = await create(owner, payload)
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        [missing],
      )
    }
  })

  it('answers 404 for an unknown script and for another account’s private one', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const script = await createScript(api, owner)
    for (const url of [`${SCRIPTS}/999999`, `${SCRIPTS}/${script.id}`]) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await api.request({
          method,
          url,
          headers: stranger.headers,
          ...(method === 'PUT' && { payload: { label: 'taken over' } }),
        })
        assert.equal(res.status, 404, `${method} ${url}`)
      }
    }
    const anonymous = await api.request({ method: 'GET', url: `${SCRIPTS}/${script.id}` })
    assert.equal(anonymous.status, 404)
  })

  describe('instance create with a script', () => {
    const deploy = (who: TestUser, body: object) =>
      api.request({
        method: 'POST',
        url: wirePath('/v4/compute/instances'),
        headers: who.headers,
        payload: {
          type: 'g6-nanode-1',
          region: 'us-iad',
          image: wireImageId('compute/debian12'),
          root_pass: ROOT_PASS,
          ...body,
        },
      })

    it('refuses missing and out-of-choice values, naming each field', async () => {
      const owner = await createAccount(api)
      const script = await createScript(api, owner)
      const missing = await deploy(owner, { stackscript_id: script.id })
      assert.equal(missing.status, 400)
      assert.deepEqual(errorsOf(missing.body), [
        ['stackscript_data.db_password', 'Database password is required'],
      ])
      const wrong = await deploy(owner, {
        stackscript_id: script.id,
        stackscript_data: { db_password: 'pw', size: 'huge', extras: 'git,emacs' },
      })
      assert.deepEqual(errorsOf(wrong.body), [
        ['stackscript_data.size', 'Cache size must be one of: small, large'],
        ['stackscript_data.extras', 'Extra packages must be any of: git, curl, vim'],
      ])
      const list = await api.request({
        method: 'GET',
        url: wirePath('/v4/compute/instances'),
        headers: owner.headers,
      })
      assert.equal(list.body.results, 0, 'nothing was created')
    })

    it('refuses an image the script does not list, no image, and an unknown or hidden script', async () => {
      const owner = await createAccount(api)
      const script = await createScript(api, owner)
      const data = { db_password: 'pw' }
      const otherImage = await deploy(owner, {
        stackscript_id: script.id,
        stackscript_data: data,
        image: wireImageId('compute/ubuntu22.04'),
      })
      assert.deepEqual(errorsOf(otherImage.body), [
        [
          'image',
          testVocabulary().reason(
            `Script ${script.id} cannot be deployed with image ${wireImageId('compute/ubuntu22.04')}`,
          ),
        ],
      ])
      const noImage = await deploy(owner, {
        stackscript_id: script.id,
        stackscript_data: data,
        image: undefined,
      })
      assert.deepEqual(
        noImage.body.errors.map((e: { field: string }) => e.field),
        ['image'],
      )
      const unknown = await deploy(owner, { stackscript_id: 999999 })
      assert.deepEqual(errorsOf(unknown.body), [
        ['stackscript_id', testVocabulary().reason('Script not found')],
      ])
      const stranger = await createAccount(api)
      const hidden = await deploy(stranger, { stackscript_id: script.id, stackscript_data: data })
      assert.deepEqual(errorsOf(hidden.body), [
        ['stackscript_id', testVocabulary().reason('Script not found')],
      ])
    })
  })
})
