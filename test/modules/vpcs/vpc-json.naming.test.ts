import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createVpc } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'

/**
 * The VPC reads are rendered by the database so that no row is mapped and no object serialized
 * (vpc-json.ts). Under the real naming the later fields are rendered there too: the text goes out
 * as it is, not parsed and written again on its way (as a translated answer would be).
 */
describe('VPC reads under the real naming', () => {
  const api = useTestApp({ naming: 'linode' })

  it('sends the rendered text without parsing it again', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'a', ipv4: '10.9.0.0/24' }] })
    const parse = JSON.parse
    const parsed: string[] = []
    JSON.parse = ((text: string, reviver?: never) => {
      if (typeof text === 'string' && text.includes('"subnets"')) parsed.push(text)
      return parse(text, reviver)
    }) as typeof JSON.parse
    let raw: string
    let listRaw: string
    try {
      raw = (await api.app.inject({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })).body
      listRaw = (await api.app.inject({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })).body
    } finally {
      JSON.parse = parse
    }
    assert.ok(raw.includes('"nodebalancers":[]'), raw)
    assert.ok(listRaw.includes('"nodebalancers":[]'), listRaw)
    assert.deepEqual(parsed, [], 'the server parsed the rendered VPC JSON again')
  })
})
