import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { gz, putData, rawImage, startUpload } from '../images/image-helpers.ts'
import { answerSecurityQuestions } from '../profile/profile-helpers.ts'
import { adminHeaders, BOOTSTRAP_TOKEN, bootstrapHeaders, useControlApp } from './control-app.ts'

const asTestApp = (app: unknown) => app as TestApp

interface Entry {
  id: number
  method: string
  path: string
  query: string
  status: number | null
  request_body: unknown
}

/** Secrets a client sends or gets in ways the plain spellings do not: none reaches the journal. */
describe('the request journal keeps secrets out, however they are spelled', () => {
  const api = useControlApp()
  const entries = async (): Promise<Entry[]> => {
    const res = await api.admin('GET', '/journal?page_size=500')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.data
  }

  it('an upload URL spelled with escapes, slashes or case: the path is cut, the data not kept', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    const upload = await startUpload(asTestApp(api), owner, { label: 'escaped', region: 'us-iad' })
    // `%69` is `i`: the router serves it as the upload URL.
    const put = await putData(asTestApp(api), `/%69mage-uploads/${upload.token}`, gz(rawImage(4096)))
    assert.equal(put.status, 200, JSON.stringify(put.body))
    const [entry] = (await entries()).filter((e) => e.method === 'PUT')
    assert.deepEqual(
      [entry?.path, entry?.status, entry?.request_body],
      ['/image-uploads/[redacted]', 200, null],
    )

    const secret = `S3cr3tUpl0adT0ken${'x'.repeat(26)}`
    for (const url of [
      `//image-uploads/${secret}`,
      `/Image-Uploads/${secret}`,
      `/image%2Duploads/${secret}`,
      `/image-uploads%2F${secret}`,
      `/%69mage-uploads/${secret}/%E0`,
    ]) {
      await api.admin('DELETE', '/journal')
      await api.request({
        method: 'PUT',
        url,
        headers: { 'content-type': 'application/octet-stream' },
        payload: Buffer.from('x'),
      })
      const list = await entries()
      // A malformed escape is refused before any route, and is not journalled.
      assert.equal(list.length, url.endsWith('%E0') ? 0 : 1, url)
      assert.ok(!JSON.stringify(list).includes(secret), url)
    }
  })

  it('a control API call reached through an escaped prefix is not journalled (it hands out codes)', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    await answerSecurityQuestions(asTestApp(api), owner)
    const enabled = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable',
      headers: owner.headers,
    })
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body))
    await api.admin('DELETE', '/journal')
    // `%5F` is `_`: the router serves it as the controls.
    const code = await api.request({
      method: 'GET',
      url: `/%5Fcloudplane/users/${owner.user.username}/tfa-code`,
      headers: adminHeaders,
    })
    assert.equal(code.status, 200, JSON.stringify(code.body))
    assert.match(code.body.pending, /^[0-9]{6}$/)
    assert.deepEqual(await entries(), [])
  })

  it("a body key named like an object's own members neither breaks redaction nor loses the batch", async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    await api.request({ method: 'GET', url: '/v4/regions/us-iad' })
    await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: { label: 'proto', region: 'us-iad', constructor: { a: 1 }, toString: 2, token: 'x' },
    })
    const list = await entries()
    assert.ok(list.some((e) => e.path === '/v4/regions/us-iad'))
    const posted = list.find((e) => e.path === '/v4/vpcs')
    assert.equal((posted?.request_body as { token?: unknown } | undefined)?.token, '[redacted]')
  })

  it('a body that is not JSON is kept as its size only: a password in it stays out', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    const text = "{type: 'g6-nanode-1', region: 'us-ord', root_pass: 'Sup3r-Secret-Pass'}"
    const res = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: text,
    })
    assert.equal(res.status, 400)
    const [entry] = await entries()
    assert.equal(entry?.request_body, `[${Buffer.byteLength(text)} bytes, not JSON]`)
  })

  it('security answers under a key in any case', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    await api.request({
      method: 'POST',
      url: '/v4/profile/security-questions',
      headers: owner.headers,
      payload: { Security_Questions: [{ question_id: 1, response: 'Shelbyville' }] },
    })
    const list = await entries()
    assert.equal(list.length, 1)
    assert.ok(!JSON.stringify(list).includes('Shelbyville'))
  })

  it('a query parameter named as a secret field is, in the entry and in its curl command', async () => {
    const names = [
      'token',
      'refresh_token',
      'api_token',
      'tfa_code',
      'otp_code',
      'code_verifier',
      'client_secret',
    ]
    for (const name of [...names, 'Access-Token', 'state']) {
      await api.admin('DELETE', '/journal')
      const secret = `s3cr3t-${name}-value`
      await api.request({
        method: 'GET',
        url: `/v4/profile?${name}=${secret}&page=2`,
        headers: bootstrapHeaders,
      })
      const [entry] = await entries()
      assert.equal(entry?.query, `${name}=%5Bredacted%5D&page=2`)
      const curl = String((await api.admin('GET', `/journal/${entry?.id}/curl`)).body)
      assert.ok(!curl.includes(secret) && !curl.includes(BOOTSTRAP_TOKEN), curl)
    }
  })
})
