import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { gzipSync } from 'node:zlib'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { wireImageId } from '../helpers/naming.ts'
import { KEYS } from '../modules/profile/ssh-key-fixtures.ts'
import { apiErrors, apiStatus, clientFunction, connectClient, useToken } from './client.ts'

const getProfile = clientFunction('getProfile')
const updateProfile = clientFunction('updateProfile')
const getSSHKeys = clientFunction('getSSHKeys')
const createSSHKey = clientFunction('createSSHKey')
const deleteSSHKey = clientFunction('deleteSSHKey')
const getPersonalAccessTokens = clientFunction('getPersonalAccessTokens')
const createPersonalAccessToken = clientFunction('createPersonalAccessToken')
const deletePersonalAccessToken = clientFunction('deletePersonalAccessToken')
const getSecurityQuestions = clientFunction('getSecurityQuestions')
const updateSecurityQuestions = clientFunction('updateSecurityQuestions')
const getUserPreferences = clientFunction('getUserPreferences')
const updateUserPreferences = clientFunction('updateUserPreferences')
const getMyGrants = clientFunction('getMyGrants')
const getTFAToken = clientFunction('getTFAToken')
const getImages = clientFunction('getImages')
const getImage = clientFunction('getImage')
const uploadImage = clientFunction('uploadImage')
const updateImage = clientFunction('updateImage')
const deleteImage = clientFunction('deleteImage')

/** The official client `@linode/api-v4` against cloudplane: the profile area and images. */
describe('compatibility: @linode/api-v4 (profile and images)', () => {
  const api = useTestApp()
  let owner: TestUser
  let address: string
  before(async () => {
    owner = await createAccount(api)
    address = await connectClient(api, owner.token)
  })

  it('profile settings, preferences and grants', async () => {
    const updated = await updateProfile({ email: 'new@example.com', timezone: 'Europe/Lisbon' })
    assert.equal(updated.email, 'new@example.com')
    assert.equal((await getProfile()).timezone, 'Europe/Lisbon')
    assert.deepEqual(await updateUserPreferences({ theme: 'dark', sortKeys: { vpcs: 'label' } }), {
      theme: 'dark',
      sortKeys: { vpcs: 'label' },
    })
    assert.deepEqual(await getUserPreferences(), { theme: 'dark', sortKeys: { vpcs: 'label' } })
    assert.equal(await getMyGrants(), '', 'an unrestricted user gets 204 with no body')
  })

  it('SSH keys and personal access tokens', async () => {
    const key = await createSSHKey({ label: 'laptop', ssh_key: `${KEYS.ed25519} me@laptop` })
    assert.equal(key.ssh_key, `${KEYS.ed25519} me@laptop`)
    assert.equal((await getSSHKeys()).results, 1)
    await deleteSSHKey(key.id)
    assert.equal((await getSSHKeys()).results, 0)

    const token = await createPersonalAccessToken({ label: 'ci', scopes: 'vpc:read_write' })
    assert.match(token.token, /^[0-9a-f]{64}$/)
    const listed = await getPersonalAccessTokens()
    assert.ok(
      listed.data.some(
        (entry: { id: number; token: string }) =>
          entry.id === token.id && entry.token === token.token.slice(0, 16),
      ),
    )
    useToken(token.token)
    try {
      assert.equal(await apiStatus(getSSHKeys()), 401, 'the new token holds only vpc:read_write')
    } finally {
      useToken(owner.token)
    }
    await deletePersonalAccessToken(token.id)
    useToken(token.token)
    try {
      assert.deepEqual(await apiErrors(getProfile()), [{ reason: 'Invalid Token' }])
    } finally {
      useToken(owner.token)
    }
  })

  it('security questions, then two-factor enable', async () => {
    const questions = await getSecurityQuestions()
    assert.ok(questions.security_questions.length >= 15)
    const errors = await apiErrors(getTFAToken())
    assert.match(errors[0]?.reason ?? '', /Security Questions/)
    await updateSecurityQuestions({
      security_questions: [
        { question_id: 1, response: 'Springfield' },
        { question_id: 2, response: 'Marjorie' },
        { question_id: 3, response: 'Queen' },
      ],
    })
    const tfa = await getTFAToken()
    assert.match(tfa.secret, /^[A-Z2-7]+$/)
  })

  it('images: the public catalogue, an upload, update and delete', async () => {
    const images = await getImages({ page_size: 500 })
    assert.ok(images.data.some((i: { id: string }) => i.id === wireImageId('compute/debian12')))
    assert.equal((await getImage(wireImageId('compute/debian12'))).vendor, 'Debian')
    const { image, upload_to } = await uploadImage({ label: 'compat-image', region: 'us-east' })
    assert.equal(image.status, 'pending_upload')
    // upload_to is built on the configured public URL; this test server listens elsewhere.
    const put = await fetch(`${address}${new URL(upload_to).pathname}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: gzipSync(Buffer.alloc(3 * 1024 * 1024)),
    })
    assert.equal(put.status, 200)
    const uploaded = await getImage(image.id)
    assert.equal(uploaded.status, 'available')
    assert.equal(uploaded.size, 3)
    assert.equal((await updateImage(image.id, { label: 'renamed' })).label, 'renamed')
    await deleteImage(image.id)
    assert.deepEqual(await apiErrors(getImage(image.id)), [{ reason: 'Not found' }])
  })
})
