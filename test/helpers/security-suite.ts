import assert from 'node:assert/strict'
import { it } from 'node:test'
import type { HTTPMethods } from 'fastify'
import { addSeconds, nowTimestamp } from '../../src/common/time.ts'
import { SCOPE_CATEGORIES, type Scope } from '../../src/modules/auth/scopes.ts'
import { hashTokenSecret } from '../../src/modules/auth/token-secret.ts'
import type { TestApp } from './app.ts'
import { bearer, createAccount, createToken, createUser, type TestUser } from './factories.ts'

/**
 * One description per route, from which the common security tests are generated: no token, a
 * malformed, unknown, revoked or expired token, a token without the route's scope, a restricted
 * user without the grant, another account's token, and success with each acceptable scope.
 */
export interface SecurityCase {
  method: HTTPMethods
  /** Names the route in test titles, e.g. `/v4/vpcs/{id}`. */
  route: string
  /** Builds a fresh request against resources of `owner` (called once per generated test). */
  prepare: (api: TestApp, owner: TestUser) => Promise<{ url: string; payload?: unknown }>
  /** Scopes the route requires; `[]` for any token; 'public' for no token at all. */
  scopes: Scope[] | 'public'
  /** Status of a successful call. */
  success: number
  /** A restricted user of the owner's account without grants gets this (usually 403). */
  restricted?: number
  /** Another account's token gets 404 (the resource is the owner's). */
  crossAccount?: boolean
}

const INVALID = { errors: [{ reason: 'Invalid Token' }] }
const NOT_AUTHORIZED = { errors: [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }] }

/** A scope string holding everything but the needed level of the route's categories. */
function scopesWithout(required: Scope[]): string {
  const needed = new Map(required.map((s) => s.split(':') as [string, string]))
  return SCOPE_CATEGORIES.flatMap((category) => {
    const level = needed.get(category)
    if (level === undefined) return [`${category}:read_write`]
    return level === 'read_write' ? [`${category}:read_only`] : []
  }).join(' ')
}

export function securitySuite(api: TestApp, cases: SecurityCase[]): void {
  for (const c of cases) {
    const name = `${c.method} ${c.route}`
    const call = async (headers: Record<string, string>, owner?: TestUser) => {
      const who = owner ?? (await createAccount(api))
      const { url, payload } = await c.prepare(api, who)
      return api.request({
        method: c.method,
        url,
        headers,
        ...(payload !== undefined && { payload: payload as object }),
      })
    }

    it(`${name}: the owner's token succeeds`, async () => {
      const owner = await createAccount(api)
      const res = await call(owner.headers, owner)
      assert.equal(res.status, c.success, JSON.stringify(res.body))
    })

    if (c.scopes === 'public') {
      it(`${name}: no token is needed`, async () => {
        const res = await call({})
        assert.equal(res.status, c.success, JSON.stringify(res.body))
      })
    } else {
      it(`${name}: no token is 401`, async () => {
        const res = await call({})
        assert.equal(res.status, 401)
        assert.deepEqual(res.body, INVALID)
      })
    }

    it(`${name}: a malformed token is 401`, async () => {
      for (const header of ['Bearer', 'Bearer not-a-token', 'Basic YWRtaW46YWRtaW4=', 'token abc']) {
        const res = await call({ authorization: header })
        assert.equal(res.status, 401, header)
        assert.deepEqual(res.body, INVALID)
        assert.equal(res.headers['x-oauth-scopes'], 'unknown')
      }
    })

    it(`${name}: an unknown token is 401`, async () => {
      const res = await call(bearer('0'.repeat(64)))
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, INVALID)
    })

    it(`${name}: a revoked token is 401`, async () => {
      const owner = await createAccount(api)
      const token = await createToken(api, owner.user.id)
      await api.db.deleteFrom('tokens').where('token_hash', '=', hashTokenSecret(token)).execute()
      const res = await call(bearer(token), owner)
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, INVALID)
    })

    it(`${name}: an expired token is 401`, async () => {
      const owner = await createAccount(api)
      const token = await createToken(api, owner.user.id, { expiry: addSeconds(nowTimestamp(api.clock), -1) })
      const res = await call(bearer(token), owner)
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, INVALID)
    })

    const required = c.scopes === 'public' ? [] : c.scopes
    if (required.length > 0) {
      it(`${name}: a token without ${required.join(' ')} is 401`, async () => {
        const owner = await createAccount(api)
        const token = await createToken(api, owner.user.id, { scopes: scopesWithout(required) })
        const res = await call(bearer(token), owner)
        assert.equal(res.status, 401)
        assert.deepEqual(res.body, NOT_AUTHORIZED)
        assert.equal(res.headers['x-accepted-oauth-scopes'], required.join(','))
      })

      it(`${name}: a token with exactly ${required.join(' ')} succeeds`, async () => {
        const owner = await createAccount(api)
        const token = await createToken(api, owner.user.id, { scopes: required.join(' ') })
        const res = await call(bearer(token), owner)
        assert.equal(res.status, c.success, JSON.stringify(res.body))
      })

      if (required.some((s) => s.endsWith(':read_only'))) {
        it(`${name}: read_write satisfies read_only`, async () => {
          const owner = await createAccount(api)
          const scopes = required.map((s) => s.replace(':read_only', ':read_write')).join(' ')
          const token = await createToken(api, owner.user.id, { scopes })
          const res = await call(bearer(token), owner)
          assert.equal(res.status, c.success, JSON.stringify(res.body))
        })
      }
    }

    if (c.restricted !== undefined) {
      const expected = c.restricted
      it(`${name}: a restricted user without grants gets ${expected}`, async () => {
        const owner = await createAccount(api)
        const member = await createUser(api, owner, { restricted: true })
        const { url, payload } = await c.prepare(api, owner)
        const res = await api.request({
          method: c.method,
          url,
          headers: member.headers,
          ...(payload !== undefined && { payload: payload as object }),
        })
        assert.equal(res.status, expected, JSON.stringify(res.body))
        if (expected === 403) assert.deepEqual(res.body, { errors: [{ reason: 'Unauthorized' }] })
      })
    }

    if (c.crossAccount) {
      it(`${name}: another account's token gets 404`, async () => {
        const owner = await createAccount(api)
        const stranger = await createAccount(api)
        const { url, payload } = await c.prepare(api, owner)
        const res = await api.request({
          method: c.method,
          url,
          headers: stranger.headers,
          ...(payload !== undefined && { payload: payload as object }),
        })
        assert.equal(res.status, 404, JSON.stringify(res.body))
        assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
      })
    }
  }
}
