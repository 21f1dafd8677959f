import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { randomBytes, randomInt, randomUUID, seedRandom } from '../../../src/common/random.ts'
import { createInstance, createVpc } from '../../helpers/api-fixtures.ts'
import { createAccount } from '../../helpers/factories.ts'
import { FakeBrowser, givePassword, PASSWORD, REDIRECT } from '../login/login-helpers.ts'
import { createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import { answerSecurityQuestions, CapturingSender } from '../profile/profile-helpers.ts'
import { bootstrapHeaders, buildControlApp, type ControlApp } from './control-app.ts'

describe('the random source', () => {
  after(() => seedRandom(undefined))

  it('with a seed, repeats its stream exactly; another seed, another stream', () => {
    seedRandom('run-1')
    const first = [randomBytes(40).toString('hex'), randomInt(1_000_000), randomUUID()]
    seedRandom('run-1')
    assert.deepEqual([randomBytes(40).toString('hex'), randomInt(1_000_000), randomUUID()], first)
    seedRandom('run-2')
    assert.notEqual(randomBytes(40).toString('hex'), first[0])
    assert.match(randomUUID(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    for (let i = 0; i < 200; i++) {
      const n = randomInt(3, 7)
      assert.ok(n >= 3 && n < 7, String(n))
    }
  })

  it('without one, draws from the operating system', () => {
    seedRandom(undefined)
    assert.notEqual(randomBytes(32).toString('hex'), randomBytes(32).toString('hex'))
  })
})

describe('a seeded run through the API', () => {
  let one: ControlApp
  let two: ControlApp
  before(async () => {
    one = await buildControlApp()
    two = await buildControlApp()
  })
  after(async () => {
    seedRandom(undefined)
    await one.close()
    await two.close()
  })

  const generated = async (api: ControlApp) => {
    const token = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'seeded', scopes: '*' },
    })
    const upload = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: bootstrapHeaders,
      payload: { label: 'seeded', region: 'us-east' },
    })
    return [token.body.token, upload.body.upload_to]
  }

  it('two runs with the same seed hand out the same tokens and upload URLs', async () => {
    seedRandom('ci-build-42')
    const first = await generated(one)
    seedRandom('ci-build-42')
    const second = await generated(two)
    assert.equal(typeof first[0], 'string')
    assert.deepEqual(second, first)
  })
})

describe('where generated values come from', () => {
  /**
   * Files that may draw from the operating system directly, and why: everything else goes through
   * src/common/random.ts, so a seed repeats it.
   */
  const OWN_RANDOMNESS = new Map([
    ['src/common/random.ts', 'the source itself'],
    ['src/modules/profile/secrets/secret-box.ts', 'IVs: never repeated under one key'],
    ['src/modules/profile/secrets/secret-key.ts', 'a key file that outlives a seeded run'],
    ['src/blobs/fs-blob-store.ts', 'names of temporary files'],
    ['src/app.ts', 'request ids: a poll more or less must not shift the stream'],
    ['src/modules/images/uploads/inspection-service.ts', 'an unguessable pipe name on Windows'],
  ])
  const DRAWS =
    /import\s*\{[^}]*\b(randomBytes|randomUUID|randomInt|randomFillSync|getRandomValues)\b[^}]*\}\s*from\s*'node:crypto'|\bcrypto\.(randomUUID|getRandomValues)\(/

  it('no other source file draws random values past the seeded source', () => {
    const root = join(import.meta.dirname, '../../..')
    const drawing = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((p) => p.endsWith('.ts'))
      .map((p) => `src/${p}`)
      .filter((p) => DRAWS.test(readFileSync(join(root, p), 'utf8')))
      .filter((p) => !OWN_RANDOMNESS.has(p))
    assert.deepEqual(drawing, [])
  })
})

describe('a seeded run of the whole surface, twice', () => {
  const SEED = 'ci-build-43'
  const PHONE = { iso_code: 'US', phone_number: '201-555-0199' }

  /**
   * One fresh app per run, built after seeding (its in-memory secret key, hence the login forms'
   * CSRF fields, comes from the stream too), taken through the API: every value the server
   * generated along the way, in order.
   */
  async function run(): Promise<Record<string, unknown>> {
    seedRandom(SEED)
    const sender = new CapturingSender()
    const api = await buildControlApp({ phoneSender: sender })
    try {
      const values: Record<string, unknown> = {}
      const call = async (method: 'GET' | 'POST', url: string, headers: object, payload?: object) => {
        const res = await api.request({ method, url, headers: { ...headers }, ...(payload && { payload }) })
        assert.ok(res.status < 300, `${method} ${url}: ${res.status} ${JSON.stringify(res.body)}`)
        return res
      }
      const profile = await call('GET', '/v4/profile', bootstrapHeaders)
      values.referral = profile.body.referrals.code
      values.customerUuid = profile.headers['x-customer-uuid']
      values.token = (
        await call('POST', '/v4/profile/tokens', bootstrapHeaders, { label: 'seeded', scopes: '*' })
      ).body.token
      values.uploadTo = (
        await call('POST', '/v4/images/upload', bootstrapHeaders, { label: 'seeded', region: 'us-east' })
      ).body.upload_to

      const owner = await createAccount(api, 'seeded-owner')
      values.ownerReferral = (await call('GET', '/v4/profile', owner.headers)).body.referrals.code
      const vpc = await createVpc(api, owner, {
        label: 'seeded-vpc',
        subnets: [{ label: 'seeded-subnet', ipv4: '10.0.0.0/24' }],
      })
      const instance = await createInstance(api, owner, {
        label: 'seeded-web',
        interfaces: [{ purpose: 'public' }, { purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
      } as object)
      values.addresses = [instance.ipv4, instance.ipv6]
      values.unlabelled = (await createInstance(api, owner, { label: undefined } as object)).label

      await call('POST', '/v4/profile/phone-number', owner.headers, PHONE)
      values.phoneCode = sender.lastFor('seeded-owner').code
      await answerSecurityQuestions(api, owner)
      values.tfaSecret = (await call('POST', '/v4/profile/tfa-enable', owner.headers)).body.secret
      const tfaCode = (await api.admin('GET', '/users/seeded-owner/tfa-code')).body.pending
      values.scratch = (
        await call('POST', '/v4/profile/tfa-enable-confirm', owner.headers, { tfa_code: tfaCode })
      ).body.scratch
      await api.admin('POST', '/clock/advance', { by: '30s' })

      const client = await createOAuthClient(api, owner, { public: false })
      const clientSecret = (client as unknown as { secret: string }).secret
      values.client = [client.id, clientSecret]
      await givePassword(api, owner)
      const browser = new FakeBrowser(api)
      const { verifier, challenge } = pkceFor(SEED)
      const params = {
        client_id: client.id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 'seeded',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }
      await browser.get(`/oauth/authorize?${new URLSearchParams(params)}`)
      values.csrf = [browser.cookies.get('cloudplane_csrf'), browser.csrf()]
      const password = await browser.submit('/login', { username: 'seeded-owner', password: PASSWORD })
      await browser.get(String(password.headers.location))
      values.twoFactorSession = browser.cookies.get('cloudplane_login')
      const code = (await api.admin('GET', '/users/seeded-owner/tfa-code')).body.enabled
      const trusted = await browser.submit('/login/two-factor', { code, trust: 'yes' })
      assert.equal(trusted.status, 303, trusted.body)
      values.session = browser.cookies.get('cloudplane_login')
      values.device = browser.cookies.get('cloudplane_device')
      await browser.get(String(trusted.headers.location))
      const allowed = await browser.submit('/oauth/authorize', { decision: 'allow' })
      const authorizationCode = new URL(String(allowed.headers.location)).searchParams.get('code')
      values.authorizationCode = authorizationCode
      const basic = Buffer.from(`${client.id}:${clientSecret}`).toString('base64')
      const exchange = async (fields: Record<string, string>) => {
        const res = await api.request({
          method: 'POST',
          url: '/oauth/token',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
          payload: new URLSearchParams(fields).toString(),
        })
        assert.equal(res.status, 200, JSON.stringify(res.body))
        return [res.body.access_token, res.body.refresh_token]
      }
      values.tokens = await exchange({
        grant_type: 'authorization_code',
        code: String(authorizationCode),
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      })
      values.refreshed = await exchange({
        grant_type: 'refresh_token',
        refresh_token: String((values.tokens as string[])[1]),
      })
      // The salt shows only in the stored hash, which no answer carries (the state dump redacts it).
      const hash = await api.db
        .selectFrom('user_passwords')
        .select('password_hash')
        .where('user_id', '=', owner.user.id)
        .executeTakeFirstOrThrow()
      values.passwordHash = hash.password_hash
      return values
    } finally {
      seedRandom(undefined)
      await api.close()
    }
  }

  it('hands out the same bytes: tokens, codes, referral codes, addresses, upload and login-service secrets', async () => {
    const first = await run()
    const second = await run()
    for (const [name, value] of Object.entries(first)) {
      assert.ok(value !== undefined && value !== null, `${name} was generated`)
    }
    assert.deepEqual(second, first)
    // And a different seed is a different run.
    assert.notEqual(first.token, (await generatedToken('another-seed')).token)
  })

  async function generatedToken(seed: string) {
    seedRandom(seed)
    const api = await buildControlApp()
    try {
      const res = await api.request({
        method: 'POST',
        url: '/v4/profile/tokens',
        headers: bootstrapHeaders,
        payload: { label: 'seeded', scopes: '*' },
      })
      return res.body as { token: string }
    } finally {
      seedRandom(undefined)
      await api.close()
    }
  }
})

/** A PKCE pair fixed by a name (the client's side is not the server's to repeat). */
function pkceFor(name: string) {
  const verifier = createHash('sha256').update(`verifier:${name}`).digest('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}
