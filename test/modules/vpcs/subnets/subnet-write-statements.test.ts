import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { createVpc } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

/**
 * A durable subnet write on PostgreSQL pays one round trip per statement of its transaction: the
 * subnet and its event go in one statement, and every statement but BEGIN and COMMIT is prepared
 * once per connection (named), not parsed and planned on every request.
 */
describe('subnet writes: statements per transaction', {
  skip: !onPostgres && 'PostgreSQL round trips',
}, () => {
  const api = useTestApp()
  const sent: Array<{ client: object; text: string; named: boolean }> = []
  const original = pg.Client.prototype.query
  before(() => {
    // biome-ignore lint/suspicious/noExplicitAny: wraps every overload of query()
    ;(pg.Client.prototype as any).query = function (this: object, ...args: any[]) {
      const config = args[0]
      const text = typeof config === 'string' ? config : String(config?.text ?? '')
      sent.push({ client: this, text, named: typeof config === 'object' && Boolean(config?.name) })
      // biome-ignore lint/suspicious/noExplicitAny: passes every overload through
      return (original as any).apply(this, args)
    }
  })
  after(() => {
    pg.Client.prototype.query = original
  })

  /** The statements of the one transaction the request ran, BEGIN to COMMIT, on its connection. */
  async function transactionOf(request: () => Promise<{ status: number }>) {
    sent.length = 0
    const res = await request()
    assert.equal(res.status, 200)
    const begin = sent.find((s) => s.text === 'begin')
    assert.ok(begin, 'no transaction')
    const own = sent.filter((s) => s.client === begin.client)
    const from = own.indexOf(begin)
    const to = own.findIndex((s, i) => i > from && s.text === 'commit')
    assert.ok(to > from, 'no commit')
    return own.slice(from, to + 1)
  }

  it('creates a subnet in BEGIN, lock, ranges, insert with its event, COMMIT; deletes in four', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    for (let i = 0; i < 2; i++) {
      let id = 0
      const created = await transactionOf(async () => {
        const res = await api.request({
          method: 'POST',
          url: `/v4/vpcs/${vpc.id}/subnets`,
          headers: owner.headers,
          payload: { label: `s-${i}`, ipv4: '10.1.0.0/24' },
        })
        id = res.body.id
        return res
      })
      assert.equal(created.length, 5, created.map((s) => s.text).join('\n'))
      assert.match(created[3]?.text ?? '', /^with "s" as \(insert into "subnets".*insert into "events"/s)
      const deleted = await transactionOf(() =>
        api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}/subnets/${id}`, headers: owner.headers }),
      )
      assert.equal(deleted.length, 4, deleted.map((s) => s.text).join('\n'))
      assert.match(deleted[2]?.text ?? '', /^with "d" as \(delete from "subnets".*insert into "events"/s)
      for (const statement of [...created, ...deleted].filter((s) => !/^(begin|commit)$/.test(s.text))) {
        assert.ok(statement.named, `not prepared: ${statement.text}`)
      }
    }
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const actions = events.body.data.map((e: { action: string }) => e.action)
    assert.deepEqual(actions.slice(0, 4), [
      'subnet_delete',
      'subnet_create',
      'subnet_delete',
      'subnet_create',
    ])
  })
})
