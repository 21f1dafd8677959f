import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { seedSchemaDocument } from '../../../src/modules/control/seed/seed-schema-document.ts'

describe('the published seed file schema', () => {
  it('docs/seed.schema.json is the schema the server checks seed files with (npm run seed:schema)', () => {
    const published = readFileSync(new URL('../../../docs/seed.schema.json', import.meta.url), 'utf8')
    assert.equal(published, seedSchemaDocument())
    const schema = JSON.parse(published)
    assert.ok(schema.properties.accounts.items.properties.vpcs.items.properties.subnets)
  })
})
