import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { formatTimestamp } from '../../../src/common/time.ts'
import { writeStoredClock } from '../../../src/modules/control/clock-store.ts'
import { startUpload } from '../images/image-helpers.ts'
import { bootstrapHeaders, useControlApp } from './control-app.ts'

const HOUR = 3600_000
const seconds = (timestamp: string) => Date.parse(`${timestamp}Z`) / 1000

describe('the clock', () => {
  const api = useControlApp()

  it('shows virtual and real time; advance, set and resume move what every rule reads', async () => {
    const start = await api.admin('GET', '/clock')
    assert.equal(start.status, 200)
    assert.ok(Math.abs(seconds(start.body.virtual) - seconds(start.body.real)) <= 1)

    const advanced = await api.admin('POST', '/clock/advance', { by: '24h' })
    assert.equal(advanced.status, 200)
    assert.equal(advanced.body.offset_seconds, 24 * 3600)
    assert.equal(advanced.body.real_time, false)
    const again = await api.admin('POST', '/clock/advance', { by: '1d12h' })
    assert.equal(again.body.offset_seconds, 60 * 3600)

    const set = await api.admin('POST', '/clock/set', { at: '2031-05-01T10:00:00' })
    assert.equal(set.status, 200)
    assert.ok(Math.abs(seconds(set.body.virtual) - seconds('2031-05-01T10:00:00')) <= 1)
    // API-visible times follow: a VPC created now is stamped with the virtual time.
    const vpc = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: bootstrapHeaders,
      payload: { label: 'clocked', region: 'us-iad' },
    })
    assert.equal(vpc.status, 200, JSON.stringify(vpc.body))
    assert.ok(Math.abs(seconds(vpc.body.created) - seconds('2031-05-01T10:00:00')) <= 2, vpc.body.created)

    const resumed = await api.admin('POST', '/clock/resume')
    assert.equal(resumed.body.offset_seconds, 0)
    assert.equal(resumed.body.real_time, true)
  })

  it('follows a move another process stored, from the very next request (token expiry included)', async () => {
    await api.admin('POST', '/clock/resume')
    const expiry = formatTimestamp(new Date(api.clock.now().getTime() + HOUR))
    const created = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'other-process', scopes: '*', expiry },
    })
    const headers = { authorization: `Bearer ${created.body.token}` }
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 200)
    // What another process's `clock advance 2h` leaves in the database.
    await writeStoredClock(api.db, { offsetMs: 2 * HOUR })
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 401)
    await writeStoredClock(api.db, { offsetMs: 0 })
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 200)
  })

  it('refuses what is not a duration or an instant, naming the field', async () => {
    const bad = await api.admin('POST', '/clock/advance', { by: 'tomorrow' })
    assert.equal(bad.status, 400)
    assert.equal(bad.body.errors[0].field, 'by')
    const badAt = await api.admin('POST', '/clock/set', { at: '2031-02-30T00:00:00' })
    assert.equal(badAt.status, 400)
    assert.equal(badAt.body.errors[0].field, 'at')
  })

  it('refuses a move past what timestamps can hold, and changes nothing', async () => {
    await api.admin('POST', '/clock/resume')
    for (const [path, body, field] of [
      ['/clock/advance', { by: '99999999999w' }, 'by'],
      ['/clock/advance', { by: '1000000w' }, 'by'],
      ['/clock/set', { at: '9999-06-01T00:00:00' }, 'at'],
      ['/clock/set', { at: '1969-12-31T23:59:59' }, 'at'],
    ] as const) {
      const refused = await api.admin('POST', path, body)
      assert.equal(refused.status, 400, JSON.stringify(body))
      assert.equal(refused.body.errors[0].field, field)
      assert.equal((await api.admin('GET', '/clock')).body.real_time, true)
      const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })
      assert.equal(profile.status, 200, JSON.stringify(body))
    }
    const latest = await api.admin('POST', '/clock/set', { at: '9998-12-31T23:00:00' })
    assert.equal(latest.status, 200)
    assert.equal(latest.body.virtual.slice(0, 13), '9998-12-31T23')
    assert.equal((await api.admin('POST', '/clock/advance', { by: '2h' })).status, 400)
    await api.admin('POST', '/clock/resume')
  })

  it('the expiry story: a token past its expiry is 401; an upload left 24 h is gone with its data', async () => {
    await api.admin('POST', '/clock/resume')
    const expiry = formatTimestamp(new Date(api.clock.now().getTime() + HOUR))
    const created = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'short-lived', scopes: '*', expiry },
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const shortLived = { authorization: `Bearer ${created.body.token}` }
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers: shortLived })).status, 200)

    const owner = { headers: bootstrapHeaders } as Parameters<typeof startUpload>[1]
    const upload = await startUpload(api as unknown as Parameters<typeof startUpload>[0], owner)
    const id = Number(upload.image.id.split('/')[1])
    // Data received before the upload stalled.
    await api.blobs.put(`images/${id}.img.gz`, Readable.from([Buffer.from('partial')]))

    await api.admin('POST', '/clock/advance', { by: '2h' })
    const expired = await api.request({ method: 'GET', url: '/v4/profile', headers: shortLived })
    assert.equal(expired.status, 401)
    const stillThere = await api.request({
      method: 'GET',
      url: `/v4/images/${upload.image.id}`,
      headers: bootstrapHeaders,
    })
    assert.equal(stillThere.status, 200)
    assert.equal(stillThere.body.status, 'pending_upload')

    await api.admin('POST', '/clock/advance', { by: '22h' })
    const gone = await api.request({
      method: 'GET',
      url: `/v4/images/${upload.image.id}`,
      headers: bootstrapHeaders,
    })
    assert.equal(gone.status, 404)
    assert.equal(await api.blobs.head(`images/${id}.img.gz`), undefined, 'its data is deleted')
  })
})
