import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { loadConfig } from '../src/config.ts'

/**
 * The first start's example shows the configured token as a shell reads it from where it came,
 * and it must give the token the server seeded: a file name that begins with '-' is still the
 * file, and a token written in upper case is sent in lower case, as the server seeds it.
 */
describe('the welcome example of a token given in a file', () => {
  it('whose name begins with a dash reads the token from that file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-hint-'))
    const previous = process.cwd()
    try {
      const token = randomBytes(32).toString('hex')
      writeFileSync(join(dir, '-token'), `${token}\n`)
      process.chdir(dir)
      const config = loadConfig({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: '-token' })
      assert.equal(config.bootstrapToken, token)
      // As the example uses it: inside the double quotes of `curl -H "Authorization: Bearer …"`.
      const read = execFileSync('bash', ['-c', `printf %s "${config.bootstrapTokenHint}" 2>/dev/null`], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      assert.equal(read, token, `the example ${config.bootstrapTokenHint} reads another value`)
    } finally {
      process.chdir(previous)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('an upper-case token in the file: the example sends the token the server seeded (it lower-cases it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-hint-'))
    try {
      const token = randomBytes(32).toString('hex').toUpperCase()
      const file = join(dir, 'token')
      writeFileSync(file, `${token}\n`)
      const config = loadConfig({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file })
      // The server only takes lower-case secrets (TOKEN_PATTERN), and seeds this one.
      assert.equal(config.bootstrapToken, token.toLowerCase())
      const read = execFileSync('bash', ['-c', `printf %s "${config.bootstrapTokenHint}"`], {
        encoding: 'utf8',
      })
      assert.equal(
        read,
        config.bootstrapToken,
        `the example ${config.bootstrapTokenHint} sends another token`,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a token in the environment in upper case: the example lower-cases it too', () => {
    const token = randomBytes(32).toString('hex')
    const config = loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN: token.toUpperCase() })
    const read = execFileSync('bash', ['-c', `printf %s "${config.bootstrapTokenHint}"`], {
      encoding: 'utf8',
      env: { ...process.env, CLOUDPLANE_BOOTSTRAP_TOKEN: token.toUpperCase() },
    })
    assert.equal(read, token)
    assert.equal(
      loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN: token }).bootstrapTokenHint,
      '$CLOUDPLANE_BOOTSTRAP_TOKEN',
    )
  })
})
