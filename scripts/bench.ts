/**
 * `npm run bench [group…]`: loopback-only, time-bounded benchmarks of cloudplane against a bare
 * node:http ceiling serving the same bytes (or against Prism). Groups: platform, events, vpcs,
 * images, prism, ready, control, journal, and soak (minutes long: only when named). Every case runs BENCH_ROUNDS rounds (default 5) of BENCH_DURATION seconds
 * (default 2) per side, ceiling and server alternating, and reports the median ratio with its
 * range; the goals are printed together at the end as met or missed. TEST_DATABASE_URL (or
 * BENCH_DATABASE_URL) adds the PostgreSQL runs, each compared with SQLite's in the same run.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createDb, type Db } from '../src/db/connect.ts'
import { catalogueCases } from './bench/cases/catalogues.ts'
import { BENCH_ADMIN_KEY, printReset, resetCase } from './bench/cases/control.ts'
import { eventPageCases } from './bench/cases/events.ts'
import { imageListCases, printUploads, uploadCases } from './bench/cases/images.ts'
import { journalCases } from './bench/cases/journal.ts'
import { platformCases } from './bench/cases/platform.ts'
import { prismCases } from './bench/cases/prism.ts'
import { readyCase } from './bench/cases/ready.ts'
import { soakCase } from './bench/cases/soak.ts'
import { subnetWriteCase, vpcReadCases } from './bench/cases/vpcs.ts'
import { formatSpread, isMet, printGoals } from './bench/goals.ts'
import {
  type CaseResult,
  CONNECTIONS,
  DURATION_SECONDS,
  engineGoal,
  printTable,
  ROUNDS,
  type RunningServer,
  startCloudplane,
} from './bench/harness.ts'

type Engine = 'SQLite' | 'PostgreSQL'
type Group = (
  server: RunningServer,
  db: Db,
  token: string,
  engine: Engine,
  dataDir: string,
  /** What the server was started with (for a second server on the same database). */
  env: Record<string, string>,
) => Promise<CaseResult[]>

const selected = process.argv.slice(2)
const wanted = (group: string) => (selected.length === 0 && group !== 'soak') || selected.includes(group)

console.log(
  `cloudplane benchmark: ${ROUNDS} rounds of ${DURATION_SECONDS} s per side per case, ${CONNECTIONS} connections, Node ${process.version}, loopback`,
)
const dir = mkdtempSync(join(tmpdir(), 'cloudplane-bench-'))
const token = randomBytes(32).toString('hex')
let failed = false
/** SQLite's result of each case, by name without the engine, for PostgreSQL's comparison. */
const sqliteResults = new Map<string, CaseResult>()
const caseKey = (name: string) => name.replace(/ \((SQLite|PostgreSQL)\)$/, '')

/** A fresh server on a fresh file-backed SQLite database in its default configuration, unless asked. */
async function onSqlite(title: string, group: Group, extraEnv: Record<string, string> = {}): Promise<void> {
  const dataDir = mkdtempSync(join(dir, 'sqlite-'))
  const env = {
    DATA_DIR: dataDir,
    CLOUDPLANE_BOOTSTRAP_TOKEN: token,
    CLOUDPLANE_ADMIN_KEY: BENCH_ADMIN_KEY,
    ...extraEnv,
  }
  const server = await startCloudplane(env, dataDir)
  const db = createDb({ kind: 'sqlite', location: join(dataDir, 'cloudplane.db') })
  try {
    report(title, await group(server, db, token, 'SQLite', dataDir, env), 'SQLite')
  } catch (error) {
    failed = true
    console.log(`\n${title}: stopped by an error: ${(error as Error).stack}`)
  } finally {
    await db.destroy()
    await server.stop()
  }
}

/** The same on a fresh schema of the PostgreSQL database in BENCH_DATABASE_URL or TEST_DATABASE_URL. */
async function onPostgres(title: string, group: Group, extraEnv: Record<string, string> = {}): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!url) {
    console.log(`\n${title}: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)`)
    return
  }
  const schema = `bench_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const parsed = new URL(url)
  parsed.searchParams.set('schema', schema)
  const dataDir = mkdtempSync(join(dir, 'pg-'))
  const db = createDb({ kind: 'postgres', location: url, schema })
  let server: RunningServer | undefined
  try {
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: parsed.toString(),
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
      CLOUDPLANE_ADMIN_KEY: BENCH_ADMIN_KEY,
      // PostgreSQL's default configuration (no control API, so no request journal) unless asked.
      ...extraEnv,
    }
    server = await startCloudplane(env, dataDir)
    report(title, await group(server, db, token, 'PostgreSQL', dataDir, env), 'PostgreSQL')
  } catch (error) {
    failed = true
    console.log(`\n${title}: stopped by an error: ${(error as Error).stack}`)
  } finally {
    await db.destroy()
    await server?.stop()
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  }
}

function report(title: string, results: CaseResult[], engine: Engine): void {
  if (results.length === 0) return
  printTable(title, results)
  if (engine === 'SQLite') {
    for (const result of results) sqliteResults.set(caseKey(result.name), result)
    return
  }
  // Every PostgreSQL case next to SQLite's, under the table: a case SQLite did not run says so.
  const lines = [`PostgreSQL / SQLite, ratios to ceiling paired by round (goal >= 50%):`]
  for (const result of results) {
    const key = caseKey(result.name)
    const sqlite = sqliteResults.get(key)
    if (sqlite === undefined) {
      lines.push(`- ${key}: no SQLite figure in this run`)
      continue
    }
    const goal = engineGoal(key, sqlite, result)
    lines.push(`- ${key}: ${formatSpread(goal.value, goal.unit)} ${isMet(goal) ? 'met' : 'MISSED'}`)
  }
  console.log(`\n${lines.join('\n')}`)
}

/** A group on SQLite, then on PostgreSQL (compared case by case). */
async function onBoth(title: string, group: Group, extraEnv: Record<string, string> = {}): Promise<void> {
  await onSqlite(`${title}, SQLite file (WAL, durable commits), request logging on`, group, extraEnv)
  await onPostgres(`${title}, PostgreSQL`, group, extraEnv)
}

try {
  if (wanted('platform')) {
    await onBoth('Platform', async (server, db, token, engine) => [
      ...(await catalogueCases(server, engine)),
      ...(await platformCases(server, db, token, engine)),
    ])
  }
  if (wanted('events')) {
    // The list statements themselves, each page rendered: a page asked for again would be kept.
    await onBoth(
      'Events of one account, every page rendered (CLOUDPLANE_KEPT_PAGES=off)',
      (server, db, token, engine) => eventPageCases(server, db, token, engine),
      { CLOUDPLANE_KEPT_PAGES: 'off' },
    )
  }
  if (wanted('vpcs')) {
    await onBoth('VPCs', async (server, db, token, engine) => [
      ...(await vpcReadCases(server, db, token, engine)),
      await subnetWriteCase(server, token, engine),
    ])
  }
  if (wanted('images')) {
    await onBoth('Images', (server, db, token, engine) => imageListCases(server, db, token, engine))
    await onSqlite('Image uploads, SQLite file', async (server, _db, token) => {
      printUploads(await uploadCases(server, token))
      return []
    })
  }
  if (wanted('prism')) {
    await onSqlite(
      'cloudplane vs Prism (mocking openapi.json), SQLite file',
      (server, _db, token, _e, dataDir) => prismCases(server, token, dataDir),
    )
  }
  if (wanted('ready')) {
    const dataDir = mkdtempSync(join(dir, 'ready-'))
    try {
      await readyCase({ DATA_DIR: dataDir, CLOUDPLANE_BOOTSTRAP_TOKEN: token }, dataDir)
    } catch (error) {
      failed = true
      console.log(`\nready: stopped by an error: ${(error as Error).message}`)
    }
  }
  if (wanted('journal')) {
    // The journal follows the control API: on by default with SQLite (where people test), and on
    // PostgreSQL when the control API is asked for.
    const group: Group = (server, _db, token, engine, dataDir, env) =>
      journalCases(server, token, env, dataDir, engine)
    await onSqlite('Request journal, SQLite file', group)
    await onPostgres('Request journal, PostgreSQL', group, { CLOUDPLANE_CONTROL: 'on' })
  }
  if (wanted('soak')) {
    await onBoth('Soak', async (server, _db, token, engine) => {
      await soakCase(server, token, engine)
      return []
    })
  }
  if (wanted('control')) {
    const resetGroup: Group = async (server, db, _token, engine) => {
      printReset(
        `Control API reset, ${engine}`,
        await resetCase(server, db, engine === 'SQLite' ? 50 : undefined),
      )
      return []
    }
    await onSqlite('Control API reset, SQLite file', resetGroup)
    await onPostgres('Control API reset, PostgreSQL', resetGroup, { CLOUDPLANE_CONTROL: 'on' })
  }
} finally {
  // BENCH_KEEP=1 keeps the servers' data and logs for a look at what went wrong.
  if (process.env.BENCH_KEEP === undefined) rmSync(dir, { recursive: true, force: true })
  else console.log(`kept the servers' data and logs in ${dir}`)
}

const allMet = printGoals()
console.log(
  failed
    ? '\nA group stopped early (see above); its remaining goals are not listed.'
    : allMet
      ? '\nAll goals met.'
      : '\nSome goals were missed (marked MISSED).',
)
