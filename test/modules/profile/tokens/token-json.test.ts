import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { issueToken } from '../../../../src/modules/auth/issue-token.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'

/**
 * The token list is rendered to JSON by the database (token-json.ts). Whatever the stored text,
 * the page must be the bytes JSON.stringify gives for the wire objects, and each item the bytes
 * the single-token route serializes, key order included.
 */
describe('token list JSON rendered by the database', () => {
  const api = useTestApp()

  const units = ['a', 'é', '"', '\\', '\n', '\t', '\b', '\f', '\r', '/', '<', '😀', '\u0001', '\u001f']
  // PostgreSQL text cannot hold NUL; SQLite's can, and its JSON quoting must escape it.
  if (process.env.CLOUDPLANE_TEST_DIALECT !== 'postgres') units.push('\u0000')
  const text = (minLength: number) =>
    fc.string({ unit: fc.constantFrom(...units, '\u007f', '\u2028', ' '), minLength, maxLength: 8 })
  const timestamp = (from: string, to: string) =>
    fc
      .date({ min: new Date(`${from}T00:00:00Z`), max: new Date(`${to}T00:00:00Z`), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 19))
  const tokenArb = fc.record({
    label: text(1),
    scopes: text(0),
    created: timestamp('2020-01-01', '2025-12-31'),
    // Still working: the list shows only tokens that have not expired.
    expiry: fc.option(timestamp('2040-01-01', '2050-01-01'), { nil: null }),
  })

  it('matches JSON.stringify of the wire objects and the single-token answers, for any stored token', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tokenArb, { minLength: 1, maxLength: 4 }), async (tokens) => {
        const owner = await createAccount(api)
        const ids: number[] = []
        const expected: unknown[] = []
        for (const t of tokens) {
          const { row, secret } = await issueToken(api.db, { userId: owner.user.id, ...t })
          ids.push(row.id)
          expected.push({
            id: row.id,
            scopes: t.scopes,
            created: t.created,
            label: t.label,
            token: secret.slice(0, 16),
            expiry: t.expiry,
          })
        }
        const page = await api.request({
          method: 'GET',
          url: '/v4/profile/tokens',
          headers: {
            ...owner.headers,
            'x-filter': JSON.stringify({ created: { '+lt': '2026-01-01T00:00:00' } }),
          },
        })
        assert.equal(page.status, 200)
        assert.equal(page.headers['content-type'], 'application/json; charset=utf-8')
        const byId = [...expected].sort((a, b) => (a as { id: number }).id - (b as { id: number }).id)
        assert.equal(page.raw.body, JSON.stringify({ data: byId, page: 1, pages: 1, results: byId.length }))
        const singles: string[] = []
        for (const id of [...ids].sort((a, b) => a - b)) {
          const one = await api.request({
            method: 'GET',
            url: `/v4/profile/tokens/${id}`,
            headers: owner.headers,
          })
          singles.push(one.raw.body)
        }
        assert.equal(
          page.raw.body,
          `{"data":[${singles.join(',')}],"page":1,"pages":1,"results":${ids.length}}`,
        )
      }),
      { numRuns: 30 },
    )
  })

  it('answers a page past the end with the last page, and a filter that matches nothing with page 1 of 1', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 26; i++) {
      await issueToken(api.db, {
        userId: owner.user.id,
        label: `t-${i}`,
        scopes: '*',
        created: '2026-01-01T00:00:00',
        expiry: null,
      })
    }
    const list = async (query: string, filter?: object) =>
      api.request({
        method: 'GET',
        url: `/v4/profile/tokens${query}`,
        headers: { ...owner.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
      })
    const past = await list('?page=9&page_size=25')
    assert.deepEqual(
      { ...past.body, data: past.body.data.map((t: { label: string }) => t.label) },
      { data: ['t-24', 't-25'], page: 2, pages: 2, results: 27 },
    )
    const none = await list('', { label: 'nothing like it' })
    assert.equal(none.raw.body, '{"data":[],"page":1,"pages":1,"results":0}')
  })
})
