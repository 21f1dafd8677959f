import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { KEY_TYPE_REASON } from '../../../../src/modules/profile/ssh-keys/ssh-key-parser.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'
import { KEYS } from '../ssh-key-fixtures.ts'

/** Rebuilds a key line with its blob changed by `edit` (the SSH wire format, as bytes). */
function editBlob(line: string, edit: (blob: Buffer) => Buffer, type = line.split(' ')[0]): string {
  const blob = Buffer.from(line.split(' ')[1] as string, 'base64')
  return `${type} ${edit(Buffer.from(blob)).toString('base64')}`
}

const str = (b: Buffer) => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(b.length)
  return Buffer.concat([length, b])
}

describe('profile SSH key refusals', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const add = (payload: unknown) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/sshkeys',
      headers: owner.headers,
      payload: payload as object,
    })

  const refusedWith = async (ssh_key: string, reason: string) => {
    const res = await add({ label: 'bad', ssh_key })
    assert.equal(res.status, 400, ssh_key.slice(0, 60))
    assert.deepEqual(res.body, { errors: [{ field: 'ssh_key', reason }] })
  }

  it('refuses key types the API does not accept, with its wording', async () => {
    for (const key of [
      '',
      'not a key',
      KEYS.ed25519.split(' ')[1] as string,
      KEYS.rsa.replace('ssh-rsa', 'ssh-rsa-cert-v01@openssh.com'),
      KEYS.ed25519.replace('ssh-ed25519', 'ssh-ed448'),
      `from="10.0.0.1" ${KEYS.ed25519}`,
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
    ]) {
      await refusedWith(key, KEY_TYPE_REASON)
    }
  })

  it('refuses a blob that is not base64 or not a key at all', async () => {
    await refusedWith('ssh-rsa AAAA$$$$', 'SSH Key key-data is not a valid ssh-rsa public key.')
    await refusedWith(
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5',
      'SSH Key key-data is not a valid ssh-ed25519 public key.',
    )
    await refusedWith('ssh-rsa QUFBQQ==', 'SSH Key key-data is not a valid ssh-rsa public key.')
  })

  it('refuses a blob of another type than the one named (pattern matching would let these through)', async () => {
    const blob = (key: string) => key.split(' ')[1] as string
    await refusedWith(`ssh-rsa ${blob(KEYS.ed25519)}`, 'SSH Key key-data is not a valid ssh-rsa public key.')
    await refusedWith(
      `ssh-ed25519 ${blob(KEYS.rsa)}`,
      'SSH Key key-data is not a valid ssh-ed25519 public key.',
    )
    await refusedWith(
      `ecdsa-sha2-nistp256 ${blob(KEYS.ecdsa384)}`,
      'SSH Key key-data is not a valid ecdsa-sha2-nistp256 public key.',
    )
    await refusedWith(
      `sk-ssh-ed25519@openssh.com ${blob(KEYS.ed25519)}`,
      'SSH Key key-data is not a valid sk-ssh-ed25519@openssh.com public key.',
    )
    await refusedWith(
      `sk-ecdsa-sha2-nistp256@openssh.com ${blob(KEYS.skEd25519)}`,
      'SSH Key key-data is not a valid sk-ecdsa-sha2-nistp256@openssh.com public key.',
    )
  })

  it('refuses ECDSA points that are not on the curve, classic and FIDO alike', async () => {
    // The last byte of the blob is the last byte of the point's y coordinate (classic keys).
    const offCurve = editBlob(KEYS.ecdsa256, (b) => {
      b[b.length - 1] = (b[b.length - 1] as number) ^ 1
      return b
    })
    await refusedWith(offCurve, 'SSH Key key-data is not a valid ecdsa-sha2-nistp256 public key.')
    // In a FIDO key the application string follows the point: flip a byte of the point instead.
    const skOffCurve = editBlob(KEYS.skEcdsa, (b) => {
      const at = b.length - str(Buffer.from('ssh:')).length - 1
      b[at] = (b[at] as number) ^ 1
      return b
    })
    await refusedWith(
      skOffCurve,
      'SSH Key key-data is not a valid sk-ecdsa-sha2-nistp256@openssh.com public key.',
    )
  })

  it('refuses truncated keys and keys with trailing bytes', async () => {
    await refusedWith(
      editBlob(KEYS.skEd25519, (b) => b.subarray(0, b.length - 2)),
      'SSH Key key-data is not a valid sk-ssh-ed25519@openssh.com public key.',
    )
    await refusedWith(
      editBlob(KEYS.skEd25519, (b) => Buffer.concat([b, Buffer.from([0])])),
      'SSH Key key-data is not a valid sk-ssh-ed25519@openssh.com public key.',
    )
    await refusedWith(
      editBlob(KEYS.rsa, (b) => b.subarray(0, 40)),
      'SSH Key key-data is not a valid ssh-rsa public key.',
    )
  })

  it('refuses a FIDO key without an application', async () => {
    const noApplication = editBlob(KEYS.skEd25519, (b) =>
      Buffer.concat([b.subarray(0, b.length - str(Buffer.from('ssh:')).length), str(Buffer.alloc(0))]),
    )
    await refusedWith(noApplication, 'SSH Key key-data is not a valid sk-ssh-ed25519@openssh.com public key.')
  })

  it('checks the label (at most 64) and the request shape', async () => {
    const long = await add({ label: 'x'.repeat(65), ssh_key: KEYS.ed25519 })
    assert.equal(long.status, 400)
    assert.deepEqual(long.body, {
      errors: [{ field: 'label', reason: 'label must be at most 64 characters' }],
    })
    const missing = await add({ label: 'no key' })
    assert.deepEqual(missing.body, { errors: [{ field: 'ssh_key', reason: 'ssh_key is required' }] })
    const wrongType = await add({ label: 'x', ssh_key: 42 })
    assert.deepEqual(wrongType.body, { errors: [{ field: 'ssh_key', reason: 'ssh_key must be a string' }] })
    const created = await add({ label: 'ok', ssh_key: KEYS.ed25519 })
    const relabel = await api.request({
      method: 'PUT',
      url: `/v4/profile/sshkeys/${created.body.id}`,
      headers: owner.headers,
      payload: { label: 'y'.repeat(65) },
    })
    assert.equal(relabel.status, 400)
  })

  it('stores nothing when a key is refused', async () => {
    const before = await api.request({ method: 'GET', url: '/v4/profile/sshkeys', headers: owner.headers })
    await add({ label: 'bad', ssh_key: 'ssh-rsa AAAA' })
    const after = await api.request({ method: 'GET', url: '/v4/profile/sshkeys', headers: owner.headers })
    assert.equal(after.body.results, before.body.results)
  })
})
