import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { once } from 'node:events'
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
} from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { createGunzip, createGzip } from 'node:zlib'
import { sql } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { dialectOf } from '../../../src/db/dialects/dialect.ts'
import { addGoal, spreadOf } from '../goals.ts'
import { type CaseResult, growth, measure, type RunningServer } from '../harness.ts'
import { percentile, startProbe } from '../latency-probe.ts'
import { seedAccounts, settle } from '../seed.ts'

/**
 * Issue 4's cases: an authenticated image list for an account holding 1,000 private images, and
 * upload throughput (MB/s of compressed input) against a bare in-process gunzip + SHA-256 of the
 * same file, with the server's peak RSS and the regions p99 while an upload streams.
 */

const CACHE = join(process.cwd(), '.bench')
const MiB = 1024 * 1024

/** A file generated once and kept in .bench/ (gitignored). */
async function cached(name: string, make: (path: string) => Promise<void>): Promise<string> {
  mkdirSync(CACHE, { recursive: true })
  const path = join(CACHE, name)
  if (!existsSync(path)) {
    await make(`${path}.tmp`)
    renameSync(`${path}.tmp`, path)
  }
  return path
}

/**
 * A 1 GiB raw disk image as a fresh filesystem looks: zeros, with 1% of its 1 MiB blocks holding
 * data (metadata, a few files), gzip-compressed.
 */
function sparseImage(): AsyncGenerator<Buffer> {
  return (async function* () {
    const zero = Buffer.alloc(MiB)
    for (let block = 0; block < 1024; block++) yield block % 97 === 0 ? randomBytes(MiB) : zero
  })()
}

/**
 * Random-ish data: base64 text of random bytes, which gzip shrinks to about three quarters, so
 * decompression does real work; enough of it to make a 200 MB gzip file.
 */
function randomishData(): AsyncGenerator<Buffer> {
  return (async function* () {
    for (let i = 0; i < 265; i++) yield Buffer.from(randomBytes(Math.round(MiB * 0.75)).toString('base64'))
  })()
}

async function gzipTo(path: string, source: AsyncGenerator<Buffer>): Promise<void> {
  await pipeline(source, createGzip({ level: 6 }), createWriteStream(path))
}

/** The bare pipeline the upload is measured against: gunzip + SHA-256, in process, no I/O but the read. */
async function baseline(path: string): Promise<number> {
  const started = process.hrtime.bigint()
  const hash = createHash('sha256')
  await pipeline(
    createReadStream(path, { highWaterMark: MiB }),
    createGunzip({ chunkSize: MiB }),
    async (source) => {
      for await (const chunk of source) hash.update(chunk as Buffer)
    },
  )
  hash.digest()
  return Number(process.hrtime.bigint() - started) / 1e9
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024
}

async function createUpload(baseUrl: string, token: string, label: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v4/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ label, region: 'us-east' }),
  })
  if (res.status !== 200) throw new Error(`upload create answered ${res.status}: ${await res.text()}`)
  return ((await res.json()) as { upload_to: string }).upload_to
}

const PUT_FILE = fileURLToPath(new URL('../put-file.ts', import.meta.url))
const PACED_SINK = fileURLToPath(new URL('../paced-sink.ts', import.meta.url))

/**
 * The p99 factors of the floor: the same client sends the same file at the pace the server took it
 * (`mibs`), to a process that only reads it (paced-sink.ts), while the probe reads regions from the
 * idle server: what the sending alone costs the machine's latency, at the same average pace (the
 * sink reads in bursts, so this may come out above the upload itself).
 */
async function floorFactors(regions: string, path: string, mibs: number, idleP99: number): Promise<number[]> {
  const sink = spawn(process.execPath, [PACED_SINK, mibs.toFixed(1)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  try {
    const [line] = (await once(sink.stdout as NodeJS.ReadableStream, 'data')) as [Buffer]
    const url = `http://127.0.0.1:${line.toString().trim()}/floor`
    const factors: number[] = []
    for (let i = 0; i < 3; i++) {
      const probe = startProbe(regions)
      try {
        await putFile(url, path)
      } finally {
        const seen = await probe.stop().catch(() => [] as number[])
        if (seen.length > 0) factors.push(percentile(seen, 0.99) / idleP99)
      }
    }
    return factors
  } finally {
    sink.kill()
  }
}

/** PUTs a file to upload_to from another process, as `curl -T` would; resolves with its seconds. */
async function putFile(url: string, path: string): Promise<number> {
  const child = spawn(process.execPath, [PUT_FILE, url, path], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  const [code] = (await once(child, 'exit')) as [number | null]
  if (code !== 0) throw new Error(`upload client exited with ${code}`)
  return Number(out.trim())
}

export interface UploadResult {
  name: string
  compressedMiB: number
  uncompressedMiB: number
  uploadMiBs: number
  baselineMiBs: number
  ratio: number
  peakRssMiB: number
  regionsIdleP99: number
  regionsDuringP99: number
  /** The p99 during each upload over the idle p99, one per upload. */
  p99Factors: number[]
  /** The same, with the client sending to a paced sink instead (floorFactors). */
  floorFactors: number[]
  /** The bare pipeline's seconds over each upload's. */
  ratios: number[]
  probeSamples: number
}

async function uploadCase(
  server: RunningServer,
  token: string,
  name: string,
  path: string,
): Promise<UploadResult> {
  const compressed = statSync(path).size / MiB
  let uncompressed = 0
  await pipeline(createReadStream(path), createGunzip(), async (source) => {
    for await (const chunk of source) uncompressed += (chunk as Buffer).length
  })
  // Best of three for the bare pipeline and of five for the upload, in the same run on the same file.
  const base = Math.min(await baseline(path), await baseline(path), await baseline(path))
  const regions = `${server.baseUrl}/v4/regions`
  const warmup = startProbe(regions) // warms this process's client path; not measured
  await sleep(1000)
  await warmup.stop()
  const idleProbe = startProbe(regions)
  await sleep(8000)
  const idle = await idleProbe.stop()
  // The probe runs only while an upload streams, over five uploads, so idle time never dilutes it.
  const times: number[] = []
  const during: number[] = []
  const p99Factors: number[] = []
  const idleP99 = percentile(idle, 0.99)
  for (let i = 0; i < 5; i++) {
    try {
      const url = await createUpload(server.baseUrl, token, `bench-${i}`)
      const probe = startProbe(regions)
      let seconds: number
      try {
        seconds = await putFile(url, path)
      } finally {
        const seen = await probe.stop().catch(() => [] as number[])
        during.push(...seen)
        if (seen.length > 0) p99Factors.push(percentile(seen, 0.99) / idleP99)
      }
      times.push(seconds)
    } catch (error) {
      console.log(`  upload ${i + 1} of ${name} failed: ${(error as Error).message}`)
    }
  }
  const upload = Math.min(...times)
  const floor = await floorFactors(regions, path, compressed / spreadOf(times).median, idleP99)
  return {
    name,
    compressedMiB: compressed,
    uncompressedMiB: uncompressed / MiB,
    uploadMiBs: compressed / upload,
    baselineMiBs: compressed / base,
    ratio: base / upload,
    p99Factors,
    floorFactors: floor,
    ratios: times.map((t) => base / t),
    peakRssMiB: server.child.pid === undefined ? 0 : peakRss(server.child.pid),
    regionsIdleP99: idleP99,
    regionsDuringP99: percentile(during, 0.99),
    probeSamples: during.length,
  }
}

/** `count` private images of accounts first..first+accounts-1 (round-robin), made in one statement. */
async function seedImages(db: Db, count: number, firstAccount: number, accounts: number): Promise<void> {
  const numbers =
    dialectOf(db) === 'postgres'
      ? sql`select n from generate_series(0, ${count - 1}::int) as n`
      : sql`with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${count - 1}) select n from seq`
  await sql`insert into images (slug, account_id, label, description, created_by, type, status, size, capabilities,
      is_public, deprecated, vendor, eol, expiry, created, updated)
    select null, ${firstAccount} + (n % ${accounts}), 'image-' || n, '', 'admin', 'manual', 'available', 1024 + n, '[]',
      ${false}, ${false}, null, null, null, '2026-01-01T00:00:00', '2026-01-01T00:00:00'
    from (${numbers}) as s`.execute(db)
  await settle(db)
}

/** A page of 100 of the caller's 1,000 private images (and the public ones), then with 1,000,000 rows in the table. */
export async function imageListCases(
  server: RunningServer,
  db: Db,
  token: string,
  engine: string,
): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${token}` }
  const profile = (await (await fetch(`${server.baseUrl}/v4/profile`, { headers: auth })).json()) as {
    uid: number
  }
  const me = await db
    .selectFrom('users')
    .select('account_id')
    .where('id', '=', profile.uid)
    .executeTakeFirstOrThrow()
  await seedImages(db, 1000, me.account_id, 1)
  const request = { method: 'GET' as const, path: '/v4/images?page_size=100', headers: auth }
  const goal = engine === 'SQLite' ? { goal: 0.25 } : {}
  const small = await measure(
    `GET /v4/images, page of 100, 1,000 private + public (${engine})`,
    server.baseUrl,
    request,
    goal,
  )
  const first = await seedAccounts(db, 999, 'bench-images')
  await seedImages(db, 999_000, first, 999)
  const large = await measure(
    `GET /v4/images, page of 100, 1,000,000 rows in the table (${engine})`,
    server.baseUrl,
    request,
    goal,
  )
  growth(small, large)
  return [small, large]
}

export async function uploadCases(server: RunningServer, token: string): Promise<UploadResult[]> {
  const sparse = await cached('sparse-1GiB.img.gz', (p) => gzipTo(p, sparseImage()))
  const randomish = await cached('randomish-200MB.gz', (p) => gzipTo(p, randomishData()))
  return [
    await uploadCase(server, token, '1 GiB sparse raw image', sparse),
    await uploadCase(server, token, 'random-ish data', randomish),
  ]
}

export function printUploads(results: UploadResult[]): boolean {
  const lines = [
    '### Image upload (PUT upload_to), SQLite + filesystem blob store',
    '',
    '| data | gzip MiB | raw MiB | upload MiB/s | bare gunzip+SHA-256 MiB/s | ratio (goal >= 60%) | server peak RSS MiB | regions p99 idle / during upload (goal <= 2x) | probe samples during |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  let ok = true
  for (const r of results) {
    const ratioOk = r.ratio >= 0.6
    const p99Ok = r.regionsDuringP99 <= 2 * r.regionsIdleP99
    ok &&= ratioOk && p99Ok
    lines.push(
      `| ${r.name} | ${r.compressedMiB.toFixed(1)} | ${r.uncompressedMiB.toFixed(0)} | ${r.uploadMiBs.toFixed(1)} | ${r.baselineMiBs.toFixed(1)} | ${(r.ratio * 100).toFixed(1)}% ${ratioOk ? 'met' : 'MISSED'} | ${r.peakRssMiB.toFixed(0)} | ${r.regionsIdleP99.toFixed(2)} / ${r.regionsDuringP99.toFixed(2)} ms ${p99Ok ? 'met' : 'MISSED'} | ${r.probeSamples} |`,
    )
  }
  process.stdout.write(`\n${lines.join('\n')}\n`)
  for (const r of results) {
    addGoal({
      name: `upload of ${r.name}`,
      measure: 'upload MiB/s over bare gunzip+SHA-256 (per upload)',
      value: spreadOf(r.ratios),
      kind: 'at least',
      target: 0.6,
      unit: 'percent',
    })
    addGoal({
      name: `GET /v4/regions p99 during upload of ${r.name}`,
      measure: 'p99 during each upload over idle p99',
      value: spreadOf(r.p99Factors),
      kind: 'below',
      target: 2,
      unit: 'times',
      note: `idle p99 ${r.regionsIdleP99.toFixed(2)} ms; the client sending alone, to a paced sink: ${spreadOf(r.floorFactors).median.toFixed(2)}x`,
    })
  }
  return ok
}
