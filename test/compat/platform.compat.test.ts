import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser, uniqueName } from '../helpers/factories.ts'
import { apiErrors, clientFunction, connectClient } from './client.ts'

const createUser = clientFunction('createUser')
const deleteUser = clientFunction('deleteUser')
const getEvent = clientFunction('getEvent')
const getEvents = clientFunction('getEvents')
const getGrants = clientFunction('getGrants')
const getProfile = clientFunction('getProfile')
const getRegion = clientFunction('getRegion')
const getRegionAvailabilities = clientFunction('getRegionAvailabilities')
const getRegionAvailability = clientFunction('getRegionAvailability')
const getRegions = clientFunction('getRegions')
const getUser = clientFunction('getUser')
const getUsers = clientFunction('getUsers')
const markEventSeen = clientFunction('markEventSeen')
const updateGrants = clientFunction('updateGrants')

/** The official client `@linode/api-v4` against cloudplane: regions, profile, users, grants, events. */
describe('compatibility: @linode/api-v4 (platform)', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('regions and availability', async () => {
    const regions = await getRegions()
    assert.equal(regions.results, 25)
    assert.equal(regions.data.find((r: { id: string }) => r.id === 'us-iad')?.label, 'Washington, DC')
    const iad = await getRegion('us-iad')
    assert.ok(iad.capabilities.includes('VPCs'))
    const availability = await getRegionAvailabilities({ page_size: 500 }, { region: 'us-ord' })
    assert.equal(availability.results, 13)
    const one = await getRegionAvailability('us-ord')
    assert.equal(one.length, 13)
    const errors = await apiErrors(getRegion('nowhere'))
    assert.deepEqual(errors, [{ reason: 'Not found' }])
  })

  it('the profile', async () => {
    const profile = await getProfile()
    assert.equal(profile.username, owner.user.username)
    assert.equal(profile.restricted, false)
  })

  it('users, a restricted user and their grants, and the events they produced', async () => {
    const username = uniqueName('compat')
    const user = await createUser({ username, email: `${username}@example.com`, restricted: true })
    assert.equal(user.username, username)
    assert.equal((await getUser(username)).restricted, true)
    const users = await getUsers()
    assert.equal(users.results, 2)
    const grants = await getGrants(username)
    assert.equal(grants.global.add_vpcs, false)
    const updated = await updateGrants(username, { global: { add_vpcs: true } })
    assert.equal(updated.global.add_vpcs, true)

    const events = await getEvents({}, { action: 'user_create' })
    assert.equal(events.data[0]?.entity?.label, username)
    const event = await getEvent(events.data[0]?.id as number)
    assert.equal(event.action, 'user_create')
    await markEventSeen(event.id)
    assert.equal((await getEvent(event.id)).seen, true)
    await deleteUser(username)
    const errors = await apiErrors(getUser(username))
    assert.deepEqual(errors, [{ reason: 'Not found' }])
  })
})
