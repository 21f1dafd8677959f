import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string
  license: string
}

/** Runs the published command's entry, the Node version it sees set to `nodeVersion` if given. */
function runBin(args: string[], nodeVersion?: string) {
  const pretend =
    nodeVersion === undefined
      ? []
      : [
          '--import',
          `data:text/javascript,Object.defineProperty(process.versions, 'node', { value: '${nodeVersion}' })`,
        ]
  return spawnSync(process.execPath, [...pretend, BIN, ...args], { encoding: 'utf8', timeout: 30_000 })
}

describe('the published command checks the Node version first', () => {
  it('on an older Node, says in one line which version it needs and how to get it, and exits 1', () => {
    const result = runBin(['serve', '--label', "bob's server"], '20.20.2')
    assert.equal(result.status, 1)
    assert.equal(result.stdout, '')
    // The suggested command repeats the arguments, quoted for a shell.
    assert.equal(
      result.stderr,
      'cloudplane needs Node.js 24 or later (this is 20.20.2): install it from https://nodejs.org, ' +
        "or run it with npx -p node@24 cloudplane serve --label 'bob'\\''s server'\n",
    )
  })

  it('on a recent enough Node, runs the command', () => {
    const result = runBin(['--version'])
    assert.equal(result.status, 0, result.stderr)
    assert.match(result.stdout, new RegExp(pkg.version.replaceAll('.', '\\.')))
  })
})

describe('the published package', () => {
  it('carries a LICENSE whose text is the license package.json names', () => {
    // What `npm pack` would put in the tarball, without building it.
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
    assert.equal(packed.status, 0, packed.stderr)
    const [listing] = JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>
    const files = listing?.files.map((f) => f.path) ?? []
    assert.ok(files.includes('LICENSE'), files.join(' '))
    assert.ok(files.includes('README.md'), files.join(' '))
    assert.equal(pkg.license, 'Apache-2.0')
    assert.match(
      readFileSync(new URL('../LICENSE', import.meta.url), 'utf8'),
      /Apache License\s+Version 2\.0/,
    )
  })
})
