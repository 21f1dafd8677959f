/**
 * `npm run bench [group…]`: loopback-only, time-bounded benchmarks of cloudplane against a bare
 * node:http ceiling serving the same bytes. Prints one table per group. BENCH_DURATION sets the
 * seconds per measured run (default 5); TEST_DATABASE_URL (or BENCH_DATABASE_URL) enables the
 * PostgreSQL cases.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { createDb, type Db } from '../src/db/connect.ts'
import { imageListCase, printUploads, uploadCases } from './bench/cases/images.ts'
import { platformCases } from './bench/cases/platform.ts'
import { subnetWriteCase, vpcReadCases } from './bench/cases/vpcs.ts'
import {
  type CaseResult,
  CONNECTIONS,
  DURATION_SECONDS,
  printTable,
  type RunningServer,
  startCloudplane,
} from './bench/harness.ts'

type Group = (server: RunningServer, db: Db, token: string) => Promise<CaseResult[]>

const selected = process.argv.slice(2)
const wanted = (group: string) => selected.length === 0 || selected.includes(group)

console.log(
  `cloudplane benchmark: ${DURATION_SECONDS} s per run, ${CONNECTIONS} connections, Node ${process.version}, loopback`,
)
const dir = mkdtempSync(join(tmpdir(), 'cloudplane-bench-'))
const token = randomBytes(32).toString('hex')
let missed = false

/** A fresh server on a fresh file-backed SQLite database in its default configuration. */
async function onSqlite(title: string, group: Group): Promise<void> {
  const dataDir = mkdtempSync(join(dir, 'sqlite-'))
  const server = await startCloudplane({ DATA_DIR: dataDir, CLOUDPLANE_BOOTSTRAP_TOKEN: token }, dataDir)
  const db = createDb({ kind: 'sqlite', location: join(dataDir, 'cloudplane.db') })
  try {
    report(title, await group(server, db, token))
  } finally {
    await db.destroy()
    await server.stop()
  }
}

/** The same on a fresh schema of the PostgreSQL database in BENCH_DATABASE_URL or TEST_DATABASE_URL. */
async function onPostgres(title: string, group: Group): Promise<void> {
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
  const server = await startCloudplane(
    { DATA_DIR: dataDir, DATABASE_URL: parsed.toString(), CLOUDPLANE_BOOTSTRAP_TOKEN: token },
    dataDir,
  )
  const db = createDb({ kind: 'postgres', location: url, schema })
  try {
    report(title, await group(server, db, token))
  } finally {
    await db.destroy()
    await server.stop()
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  }
}

function report(title: string, results: CaseResult[]): void {
  printTable(title, results)
  missed ||= results.some(
    (r) =>
      (r.goal !== undefined && r.ratio < r.goal) ||
      (r.growth !== undefined && r.growth.value >= r.growth.max),
  )
}

try {
  if (wanted('platform')) {
    await onSqlite('Platform, SQLite file (WAL, synchronous=FULL), request logging on', platformCases)
  }
  if (wanted('vpcs')) {
    await onSqlite('VPCs, SQLite file', async (server, db, token) => [
      ...(await vpcReadCases(server, db, token, 'SQLite')),
      await subnetWriteCase(server, token),
    ])
    await onPostgres('VPCs, PostgreSQL', (server, db, token) => vpcReadCases(server, db, token, 'PostgreSQL'))
  }
  if (wanted('images')) {
    await onSqlite('Images, SQLite file', async (server, db, token) => {
      const list = await imageListCase(server, db, token)
      missed ||= !printUploads(await uploadCases(server, token))
      return list
    })
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}

console.log(missed ? '\nSome goals were missed (marked MISSED).' : '\nAll goals met.')
