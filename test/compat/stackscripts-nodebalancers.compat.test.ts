import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../helpers/factories.ts'
import { apiErrors, clientFunction as call, connectClient, useToken } from './client.ts'

const ROOT_PASS = 'correct-Horse-battery-9'

/**
 * The official client against a deployment in `linode` naming, where StackScripts and
 * NodeBalancers are served at the real service's paths.
 */
describe('compatibility: @linode/api-v4 (StackScripts, NodeBalancers)', () => {
  const api = useTestApp({ naming: 'linode' })
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('creates, lists, changes, deploys and deletes a StackScript', async () => {
    const script = await call('createStackScript')({
      label: 'compat script',
      script: '#!/bin/bash\n# <UDF name="greeting" label="Greeting" oneof="hello,hi" />\necho "$GREETING"\n',
      images: ['linode/debian12'],
      rev_note: 'one',
    })
    assert.deepEqual(script.images, ['linode/debian12'])
    assert.deepEqual(script.user_defined_fields, [{ label: 'Greeting', name: 'greeting', oneof: 'hello,hi' }])
    assert.equal((await call('getStackScript')(script.id)).label, 'compat script')
    const mine = await call('getStackScripts')({}, { mine: true })
    assert.deepEqual(
      mine.data.map((s: { id: number }) => s.id),
      [script.id],
    )
    const changed = await call('updateStackScript')(script.id, { rev_note: 'two' })
    assert.equal(changed.rev_note, 'two')

    const refused = await apiErrors(
      call('createLinode')({
        region: 'us-iad',
        type: 'g6-nanode-1',
        image: 'linode/debian12',
        root_pass: ROOT_PASS,
        stackscript_id: script.id,
        stackscript_data: { greeting: 'bonjour' },
      }),
    )
    assert.deepEqual(refused, [
      { reason: 'Greeting must be one of: hello, hi', field: 'stackscript_data.greeting' },
    ])
    const linode = await call('createLinode')({
      region: 'us-iad',
      type: 'g6-nanode-1',
      image: 'linode/debian12',
      root_pass: ROOT_PASS,
      stackscript_id: script.id,
      stackscript_data: { greeting: 'hi' },
    })
    assert.equal(linode.status, 'running')
    const unknown = await apiErrors(
      call('createLinode')({
        region: 'us-iad',
        type: 'g6-nanode-1',
        image: 'linode/debian12',
        root_pass: ROOT_PASS,
        stackscript_id: 999999,
      }),
    )
    assert.deepEqual(unknown, [{ reason: 'StackScript not found', field: 'stackscript_id' }])
    assert.equal((await call('getStackScript')(script.id)).deployments_total, 1)

    const events = await call('getEvents')({}, { action: 'stackscript_create', 'entity.type': 'stackscript' })
    const created = events.data.find((e: { entity: { id: number } }) => e.entity.id === script.id)
    assert.equal(created.entity.url, `/v4/linode/stackscripts/${script.id}`)

    await call('deleteLinode')(linode.id)
    await call('deleteStackScript')(script.id)
    assert.deepEqual(await apiErrors(call('getStackScript')(script.id)), [{ reason: 'Not found' }])
  })

  it('creates, lists, changes and deletes a NodeBalancer', async () => {
    const nb = await call('createNodeBalancer')({
      label: 'compat-nb',
      region: 'us-iad',
      client_conn_throttle: 10,
      configs: [],
    })
    assert.equal(nb.label, 'compat-nb')
    assert.match(nb.hostname, /\.nodebalancer\./)
    assert.equal((await call('getNodeBalancer')(nb.id)).client_conn_throttle, 10)
    const listed = await call('getNodeBalancers')({}, { label: 'compat-nb' })
    assert.deepEqual(
      listed.data.map((n: { id: number }) => n.id),
      [nb.id],
    )
    const taken = await apiErrors(
      call('createNodeBalancer')({ label: 'compat-nb', region: 'us-ord', configs: [] }),
    )
    assert.deepEqual(taken, [{ reason: 'Label must be unique among your NodeBalancers', field: 'label' }])
    const changed = await call('updateNodeBalancer')(nb.id, { label: 'compat-nb-2', tags: ['web'] })
    assert.deepEqual([changed.label, changed.tags], ['compat-nb-2', ['web']])
    const events = await call('getEvents')({}, { 'entity.type': 'nodebalancer', 'entity.id': nb.id })
    assert.deepEqual(
      events.data.map((e: { action: string }) => e.action),
      ['nodebalancer_update', 'nodebalancer_create'],
    )
    assert.equal(events.data[0].entity.url, `/v4/nodebalancers/${nb.id}`)
    await call('deleteNodeBalancer')(nb.id)
    assert.deepEqual(await apiErrors(call('getNodeBalancer')(nb.id)), [{ reason: 'Not found' }])
  })

  it("shows a restricted user's NodeBalancer and StackScript grants under the real keys", async () => {
    const member = await createUser(api, owner)
    const nb = await call('createNodeBalancer')({ label: 'granted-nb', region: 'us-iad', configs: [] })
    const script = await call('createStackScript')({
      label: 'granted',
      script: '#!/bin/sh\n',
      images: ['any/all'],
    })
    await grantEntity(api, member, 'loadbalancer', nb.id, 'read_only')
    await grantEntity(api, member, 'script', script.id, 'read_write')
    useToken(member.token)
    try {
      const grants = await call('getMyGrants')()
      assert.deepEqual(grants.nodebalancer, [{ id: nb.id, label: 'granted-nb', permissions: 'read_only' }])
      assert.deepEqual(grants.stackscript, [{ id: script.id, label: 'granted', permissions: 'read_write' }])
      assert.equal(grants.global.add_nodebalancers, false)
      assert.equal(grants.global.add_stackscripts, false)
    } finally {
      useToken(owner.token)
    }
  })
})
