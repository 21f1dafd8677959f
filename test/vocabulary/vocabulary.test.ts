import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { getMeta } from '../../src/db/meta.repository.ts'
import { EventSchema } from '../../src/modules/events/events.schemas.ts'
import { assertSameNaming } from '../../src/vocabulary/naming-record.ts'
import { DOCUMENT_VOCABULARY, LINODE_VOCABULARY } from '../../src/vocabulary/vocabulary.ts'
import { filterFields, planOf } from '../../src/vocabulary/wire-plan.ts'
import { filterFromWire } from '../../src/vocabulary/x-filter-terms.ts'
import { buildTestApp, useTestApp } from '../helpers/app.ts'

const real = LINODE_VOCABULARY

describe('the linode vocabulary', () => {
  it('maps every path prefix of the table, on segment boundaries only', () => {
    assert.equal(real.path('/compute/instances/:instanceId/configs'), '/linode/instances/:instanceId/configs')
    assert.equal(real.path('/compute/types/:typeId'), '/linode/types/:typeId')
    assert.equal(real.path('/compute/scripts'), '/linode/stackscripts')
    assert.equal(real.path('/loadbalancers/:id'), '/nodebalancers/:id')
    assert.equal(real.path('/images/compute/:slug'), '/images/linode/:slug')
    assert.equal(real.path('/compute/instancesx'), '/compute/instancesx')
    assert.equal(real.path('/vpcs/:vpcId'), '/vpcs/:vpcId')
  })

  it('translates values both ways and leaves other words alone', () => {
    const both = (kind: Parameters<typeof real.toWire>[0], doc: string, wire: string) => {
      assert.equal(real.toWire(kind, doc), wire)
      assert.equal(real.fromWire(kind, wire), doc)
    }
    both('imageId', 'compute/debian12', 'linode/debian12')
    both('imageId', 'compute/latest-64bit', 'linode/latest-64bit')
    both('imageId', 'private/12', 'private/12')
    both('creator', 'compute', 'linode')
    both('capability', 'Computes', 'Linodes')
    both('capability', 'GPU Computes', 'GPU Linodes')
    both('capability', 'VPCs', 'VPCs')
    both('eventAction', 'compute_config_update', 'linode_config_update')
    both('eventAction', 'vpc_create', 'vpc_create')
    both('entityType', 'compute', 'linode')
    both('entityType', 'compute_config', 'linode_config')
    both('apiUrl', '/v4/compute/instances/1/disks/2', '/v4/linode/instances/1/disks/2')
    both('typeLabel', 'Compute 2GB', 'Linode 2GB')
    both('typeLabel', 'Nanode 1GB', 'Nanode 1GB')
    both('scopes', 'computes:read_only events:read_write', 'linodes:read_only events:read_write')
    both('scopes', '*', '*')
  })

  it("makes the document's scope words unknown, so tokens asking for them are refused", () => {
    assert.notEqual(real.fromWire('scopes', 'computes:read_only'), 'computes:read_only')
    assert.equal(DOCUMENT_VOCABULARY.fromWire('scopes', 'computes:read_only'), 'computes:read_only')
  })

  it('says Linode in reasons without touching words inside user text', () => {
    assert.equal(
      real.reason('Label must be unique among your Computes'),
      'Label must be unique among your Linodes',
    )
    assert.equal(real.reason('shut the Compute down first'), 'shut the Linode down first')
    assert.equal(real.reason('Subnet web-Compute-1 (3) is in use'), 'Subnet web-Compute-1 (3) is in use')
  })

  it('translates X-Filter keys and values at any depth, operators and order too', () => {
    const fields = filterFields(real, planOf(EventSchema))
    const filter = {
      '+or': [{ action: 'linode_boot' }, { action: { '+neq': 'linode_create' }, 'entity.type': 'linode' }],
      '+order_by': 'created',
      'entity.id': 5,
    }
    assert.deepEqual(JSON.parse(filterFromWire(real, fields, JSON.stringify(filter))), {
      '+or': [{ action: 'compute_boot' }, { action: { '+neq': 'compute_create' }, 'entity.type': 'compute' }],
      '+order_by': 'created',
      'entity.id': 5,
    })
    assert.equal(filterFromWire(real, fields, 'not json'), 'not json')
  })
})

describe('CLOUDPLANE_NAMING', () => {
  it('defaults to document and takes linode; anything else is a one-line error', () => {
    assert.equal(loadConfig({}).naming, 'document')
    assert.equal(loadConfig({ CLOUDPLANE_NAMING: 'linode' }).naming, 'linode')
    assert.equal(loadConfig({}, { naming: 'linode' }).naming, 'linode')
    assert.throws(
      () => loadConfig({ CLOUDPLANE_NAMING: 'akamai' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message === 'CLOUDPLANE_NAMING: must be document or linode, got "akamai"',
    )
  })

  it('is recorded on first start; a process with the other value refuses to start', async () => {
    const api = await buildTestApp()
    try {
      await assertSameNaming(api.db, 'linode')
      assert.equal(await getMeta(api.db, 'naming'), 'linode')
      await assertSameNaming(api.db, 'linode')
      await assert.rejects(assertSameNaming(api.db, 'document'), {
        name: 'ConfigError',
        message:
          'CLOUDPLANE_NAMING: is document, but this database was first served with linode; start with CLOUDPLANE_NAMING=linode',
      })
    } finally {
      await api.close()
    }
  })
})

describe('the OpenAPI document in linode naming', () => {
  const api = useTestApp({ naming: 'linode' })

  it('shows the real paths, fields, grant keys and scopes', async () => {
    const doc = (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body
    const paths = Object.keys(doc.paths)
    assert.ok(paths.includes('/linode/instances/{instanceId}/configs/{configId}'))
    assert.ok(!paths.some((p) => p.startsWith('/compute/')))
    const getInstance = doc.paths['/linode/instances/{instanceId}'].get
    assert.deepEqual(getInstance.security, [{ personalAccessToken: ['linodes:read_only'] }])
    assert.equal(getInstance['x-accepted-oauth-scopes'], 'linodes:read_only')
    const profile = doc.paths['/profile'].get.responses['200'].content['application/json'].schema
    assert.ok('lish_auth_method' in profile.properties && !('shell_auth_method' in profile.properties))
    const grants = doc.paths['/profile/grants'].get.responses['200'].content['application/json'].schema
    assert.deepEqual(Object.keys(grants.properties), [
      'linode',
      'nodebalancer',
      'domain',
      'stackscript',
      'longview',
      'image',
      'volume',
      'firewall',
      'database',
      'lkecluster',
      'vpc',
      'global',
    ])
    const subnet =
      doc.paths['/vpcs/{vpcId}/subnets/{subnetId}'].get.responses['200'].content['application/json'].schema
    assert.ok(subnet.required.includes('nodebalancers'))
    assert.ok(!JSON.stringify(doc).includes('x-term'))
    const docs = await api.request({ method: 'GET', url: '/docs/json' })
    assert.ok(Object.keys(docs.body.paths).includes('/linode/instances'))
  })
})
