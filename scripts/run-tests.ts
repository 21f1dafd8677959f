/**
 * `npm test`: the whole suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set
 * (CI sets it; an unreachable database is then a failure, not a skip).
 * Arguments narrow the run to files or folders: `npm test -- test/modules/regions`.
 */
import { spawnSync } from 'node:child_process'
import { globSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

const args = process.argv.slice(2)
const patterns = args.length > 0 ? args : ['test']
const files = patterns
  .flatMap((p) =>
    statSync(p, { throwIfNoEntry: false })?.isDirectory() ? globSync(`${p}/**/*.test.ts`) : [p],
  )
  .sort()
if (files.length === 0) {
  console.error(`no test files match ${patterns.join(' ')}`)
  process.exit(1)
}

const pgUrl = process.env.TEST_DATABASE_URL
const dialects = ['sqlite', ...(pgUrl ? ['postgres'] : [])]
/** Every PostgreSQL schema of this run starts with this, so the run can drop exactly its own. */
const schemaPrefix = `t${process.pid}_`

async function dropRunSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>(
      'select nspname as name from pg_namespace where starts_with(nspname, $1)',
      [schemaPrefix],
    )
    for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`)
  } finally {
    await client.end()
  }
}

if (pgUrl) {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 5000 })
  try {
    await client.connect()
    await client.query('select 1')
  } catch (error) {
    console.error(`TEST_DATABASE_URL is set but PostgreSQL cannot be reached: ${(error as Error).message}`)
    process.exit(1)
  } finally {
    await client.end().catch(() => {})
  }
} else {
  console.log(
    'PostgreSQL run skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to include it.',
  )
}

const concurrency = process.env.TEST_CONCURRENCY ?? String(Math.max(2, availableParallelism()))
const tapDir = mkdtempSync(join(tmpdir(), 'cloudplane-tests-'))
const summaries: string[] = []
const overall = { pass: 0, fail: 0, skipped: 0 }
let failed = false
for (const dialect of dialects) {
  console.log(`\n=== ${files.length} test files on ${dialect} ===\n`)
  const tap = join(tapDir, `${dialect}.tap`)
  const started = Date.now()
  const result = spawnSync(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-timeout=120000',
      `--test-reporter=${process.env.TEST_REPORTER ?? 'spec'}`,
      '--test-reporter-destination=stdout',
      '--test-reporter=tap',
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    {
      stdio: 'inherit',
      env: {
        ...process.env,
        CLOUDPLANE_TEST_DIALECT: dialect,
        CLOUDPLANE_TEST_SCHEMA_PREFIX: schemaPrefix,
        // Every cached prepared statement is checked against a fresh build (src/db/prepared.ts).
        CLOUDPLANE_VERIFY_PREPARED: '1',
      },
    },
  )
  if (dialect === 'postgres' && pgUrl) await dropRunSchemas(pgUrl)
  // The TAP copy gives the totals, whichever reporter is on screen.
  const totals = Object.fromEntries(
    [...readFileSync(tap, 'utf8').matchAll(/^# (tests|pass|fail|skipped|cancelled) (\d+)$/gm)].map((m) => [
      m[1],
      m[2],
    ]),
  )
  overall.pass += Number(totals.pass ?? 0)
  overall.fail += Number(totals.fail ?? 0) + Number(totals.cancelled ?? 0)
  overall.skipped += Number(totals.skipped ?? 0)
  const seconds = ((Date.now() - started) / 1000).toFixed(0)
  summaries.push(
    `${dialect}: ${totals.tests} tests, ${totals.pass} passed, ${totals.fail} failed, ${totals.skipped} skipped, ${totals.cancelled} cancelled (${seconds} s)`,
  )
  if (result.status !== 0) failed = true
}
rmSync(tapDir, { recursive: true, force: true })
console.log(`\n${summaries.join('\n')}`)
// Both engines together, in the plain form CI reads (cancelled tests count as failed).
console.log(`${overall.pass} passed, ${overall.fail} failed, ${overall.skipped} skipped`)
process.exit(failed ? 1 : 0)
