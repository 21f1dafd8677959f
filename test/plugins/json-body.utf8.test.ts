import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'

/**
 * JSON is UTF-8 (RFC 8259 §8.1): bytes that are not are refused, never stored as U+FFFD, whatever
 * charset the Content-Type declares (JSON has none to declare). A U+FFFD sent as UTF-8 is text.
 */
describe('JSON bodies that are not UTF-8', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const send = (label: string, description: Buffer, contentType: string) =>
    api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'content-type': contentType },
      payload: Buffer.concat([
        Buffer.from(`{"label":"${label}","region":"us-iad","description":"`),
        description,
        Buffer.from('"}'),
      ]),
    })
  const stored = async (label: string) =>
    (await api.db.selectFrom('vpcs').select('description').where('label', '=', label).executeTakeFirst())
      ?.description

  it('a body with bytes that are not UTF-8 is refused with a 400, not stored with U+FFFD', async () => {
    // `café` in Latin-1: 0xE9 is no UTF-8 sequence.
    const res = await send('latin1-bytes', Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'application/json')
    assert.deepEqual(
      { status: res.status, stored: await stored('latin1-bytes') },
      { status: 400, stored: undefined },
      JSON.stringify(res.body),
    )
    assert.ok(Array.isArray(res.body.errors))
  })

  it('a declared charset other than UTF-8 changes nothing: the bytes are refused, not decoded as UTF-8', async () => {
    const res = await send(
      'latin1-declared',
      Buffer.from([0x63, 0x61, 0x66, 0xe9]),
      'application/json; charset=iso-8859-1',
    )
    assert.deepEqual(
      { status: res.status, stored: await stored('latin1-declared') },
      { status: 400, stored: undefined },
      JSON.stringify(res.body),
    )
  })

  it('takes a U+FFFD sent as UTF-8, and ASCII under any declared charset', async () => {
    const replacement = await send('sent-fffd', Buffer.from('caf\uFFFD'), 'application/json')
    assert.equal(replacement.status, 200, JSON.stringify(replacement.body))
    assert.equal(await stored('sent-fffd'), 'caf\uFFFD')
    const ascii = await send('ascii-latin1', Buffer.from('cafe'), 'application/json; charset=iso-8859-1')
    assert.equal(ascii.status, 200, JSON.stringify(ascii.body))
  })
})
