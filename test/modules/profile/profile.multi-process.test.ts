import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { generate } from 'otplib'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

/** Two API processes on one PostgreSQL database, sharing the configured server key. */
describe('the profile across API processes', { skip: !onPostgres && 'PostgreSQL run only' }, () => {
  let database: ProcessDatabase
  let servers: ServerProcess[] = []
  let dataDir: string
  let url: string
  const token = randomBytes(32).toString('hex')
  const key = randomBytes(32).toString('hex')
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cloudplane-profile-'))
    database = await processDatabase(dataDir)
    url = database.url
    const env = {
      DATABASE_URL: url,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
      CLOUDPLANE_SECRET_KEY: key,
      DATA_DIR: dataDir,
    }
    servers = [await startServerProcess(env)]
    servers.push(await startServerProcess(env))
  })

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await database?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const call = async (
    server: ServerProcess,
    method: string,
    path: string,
    body?: unknown,
    auth: Record<string, string> = headers,
  ) => {
    const res = await fetch(`${server.baseUrl}/v4${path}`, {
      method,
      headers: auth,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const text = await res.text()
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) }
  }

  it('a token created on one process and revoked on the other fails on both at once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess]
    const created = await call(first, 'POST', '/profile/tokens', { label: 'roaming' })
    assert.equal(created.status, 200)
    const own = { authorization: `Bearer ${created.body.token}` }
    assert.equal((await call(second, 'GET', '/profile', undefined, own)).status, 200)
    assert.equal((await call(second, 'DELETE', `/profile/tokens/${created.body.id}`)).status, 200)
    assert.equal((await call(first, 'GET', '/profile', undefined, own)).status, 401)
    assert.equal((await call(second, 'GET', '/profile', undefined, own)).status, 401)
  })

  it('a secret sealed by one process opens on the other (TFA enabled across processes)', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess]
    const answers = [1, 2, 3].map((question_id) => ({ question_id, response: `answer-${question_id}` }))
    assert.equal(
      (await call(first, 'POST', '/profile/security-questions', { security_questions: answers })).status,
      200,
    )
    const listed = await call(second, 'GET', '/profile/security-questions')
    assert.equal(listed.body.security_questions[0].response, 'answer-1')
    const issued = await call(first, 'POST', '/profile/tfa-enable')
    assert.equal(issued.status, 200)
    const confirmed = await call(second, 'POST', '/profile/tfa-enable-confirm', {
      tfa_code: await generate({ secret: issued.body.secret }),
    })
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    assert.equal((await call(first, 'GET', '/profile')).body.two_factor_auth, true)
    assert.equal((await call(first, 'POST', '/profile/tfa-disable')).status, 200)
  })

  it('a process started with another key refuses to start, naming the setting', async () => {
    await assert.rejects(
      startServerProcess({
        DATABASE_URL: url,
        CLOUDPLANE_SECRET_KEY: randomBytes(32).toString('hex'),
        DATA_DIR: dataDir,
      }),
      /CLOUDPLANE_SECRET_KEY: differs from the key this database was first used with/,
    )
  })
})
