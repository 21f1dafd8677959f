import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { ApiError, badRequest, notFound } from '../../common/errors.ts'
import { nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { cancelAccountWork, findUserAccount, imageBlobKeys } from './control.repository.ts'
import type { ControlContext } from './control-context.ts'
import * as snapshots from './snapshots.repository.ts'
import { captureState, restoreState, rowsOwnedBy, type StateData } from './state-capture.ts'
import { decodeState, encodeState } from './state-encoding.ts'
import { type StateSchema, stateSchema } from './state-schema.ts'

const SERVER_BASELINE = 'baseline:server'
const accountBaseline = (accountId: number) => `baseline:account:${accountId}`
const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

function assertSnapshotName(name: string): void {
  if (!SNAPSHOT_NAME.test(name)) {
    throw badRequest('must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit', 'name')
  }
}

async function saveState(
  db: Db,
  name: string,
  kind: 'snapshot' | 'baseline',
  state: StateData,
  ifAbsent = false,
) {
  const bytes = encodeState(state)
  const row = { name, kind, created: formatNow(), size: bytes.length, payload: bytes.toString('base64') }
  if (ifAbsent) await snapshots.insertSnapshotIfAbsent(db, row)
  else await snapshots.putSnapshot(db, row)
  return row
}

// Snapshot bookkeeping is stamped with real time: it is about the snapshot, not the state.
const formatNow = () => new Date().toISOString().slice(0, 19)

async function loadState(
  db: Db,
  name: string,
  kind: 'snapshot' | 'baseline',
): Promise<StateData | undefined> {
  const row = await snapshots.findSnapshot(db, name, kind)
  return row && decodeState(Buffer.from(row.payload, 'base64'))
}

/**
 * The state a whole reset returns to, taken once, by the first start (after the default account
 * and any start-up seed file): the first process to store it wins.
 */
export async function ensureBaseline(db: Db): Promise<void> {
  if (await snapshots.findSnapshot(db, SERVER_BASELINE, 'baseline')) return
  await inTransaction(db, async (trx) => {
    await saveState(trx, SERVER_BASELINE, 'baseline', await captureState(trx), true)
  })
}

/** Remembers an account's state as the one its reset returns to (a seed file's accounts). */
export async function saveAccountBaseline(db: Db, accountId: number): Promise<void> {
  await saveState(db, accountBaseline(accountId), 'baseline', await captureState(db, { accountId }))
}

/** Image data the state had and has no more goes too (after the commit: a rollback keeps it). */
async function dropUnreferencedBlobs(ctx: ControlContext, before: Set<string>, accountId?: number) {
  const after = await imageBlobKeys(ctx.db, accountId)
  for (const key of before) {
    if (!after.has(key))
      await ctx.blobs.delete(key).catch((err) => ctx.log.warn({ err, key }, 'blob left behind'))
  }
}

async function replaceState(ctx: ControlContext, state: StateData, accountId?: number): Promise<void> {
  const before = await imageBlobKeys(ctx.db, accountId)
  for (const [key, data] of Object.entries(state.blobs ?? {})) {
    await ctx.blobs.put(key, Readable.from([Buffer.from(data, 'base64')]))
  }
  const schema = await stateSchema(ctx.db)
  await inTransaction(ctx.db, async (trx) => {
    if (accountId === undefined) return restoreState(trx, state, { schema })
    // An account's work under way would otherwise land on its restored resources, ids and all.
    await cancelAccountWork(trx, accountId)
    await restoreState(trx, state, { accountId, schema })
  })
  await dropUnreferencedBlobs(ctx, before, accountId)
}

/** Back to the state right after the first start: catalogues, default account, its token. */
export async function resetAll(ctx: ControlContext): Promise<void> {
  const baseline = await loadState(ctx.db, SERVER_BASELINE, 'baseline')
  if (baseline === undefined)
    throw new ApiError('conflict', [{ reason: 'No baseline was recorded at start' }])
  await replaceState(ctx, baseline)
}

/**
 * One account back to where it started: its seed file's state when it came from one, else its
 * account, users and credentials with everything else removed. Other accounts are untouched.
 */
export async function resetAccount(ctx: ControlContext, username: string): Promise<{ account_id: number }> {
  const found = await findUserAccount(ctx.db, username)
  if (found === undefined) throw badRequest(`no user named "${username}"`, 'username')
  const { accountId } = found
  const current = await captureState(ctx.db, { accountId })
  let state = await loadState(ctx.db, accountBaseline(accountId), 'baseline')
  // A baseline kept from an account the id once named (before a reset or a restore) is not this
  // account's: the uuid tells them apart.
  if (state !== undefined && uuidOf(state, accountId) !== uuidOf(current, accountId)) state = undefined
  if (state === undefined) {
    const server = await loadState(ctx.db, SERVER_BASELINE, 'baseline')
    if (server !== undefined && uuidOf(server, accountId) === uuidOf(current, accountId)) {
      state = narrowToAccount(await stateSchema(ctx.db), server, current, accountId)
    }
  }
  state ??= keepIdentity(current)
  await replaceState(ctx, { ...state, accountId }, accountId)
  return { account_id: accountId }
}

/** The tables that make up who an account is; a reset without a baseline keeps only these. */
const IDENTITY_TABLES = [
  'accounts',
  'account_limits',
  'users',
  'user_passwords',
  'global_grants',
  'oauth_clients',
  'authorized_apps',
  'tokens',
]

function keepIdentity(state: StateData): StateData {
  const tables = Object.fromEntries(
    Object.entries(state.tables).map(([name, rows]) => [name, IDENTITY_TABLES.includes(name) ? rows : []]),
  )
  return { ...state, tables }
}

const uuidOf = (state: StateData, accountId: number) =>
  state.tables.accounts?.find((row) => Number(row.id) === accountId)?.uuid

/** The account's rows within the server baseline (the account was there at the first start). */
function narrowToAccount(
  schema: StateSchema,
  server: StateData,
  current: StateData,
  accountId: number,
): StateData {
  const owned = rowsOwnedBy(schema, server, accountId)
  const tables = Object.fromEntries(Object.keys(current.tables).map((name) => [name, owned.get(name) ?? []]))
  return { ...current, tables }
}

export async function saveSnapshot(ctx: ControlContext, name: string) {
  assertSnapshotName(name)
  const state = await inTransaction(ctx.db, (trx) => captureState(trx))
  state.blobs = await readBlobs(ctx, state)
  const row = await saveState(ctx.db, name, 'snapshot', state)
  return { name: row.name, created: row.created, size: row.size }
}

async function readBlobs(ctx: ControlContext, state: StateData): Promise<Record<string, string>> {
  const blobs: Record<string, string> = {}
  for (const image of state.tables.images ?? []) {
    const key = image.blob_key
    if (typeof key !== 'string') continue
    const stream = await ctx.blobs.get(key)
    if (stream !== undefined) blobs[key] = (await buffer(stream)).toString('base64')
  }
  return blobs
}

export const listSnapshots = (ctx: ControlContext) => snapshots.listSnapshots(ctx.db)

export async function restoreSnapshot(ctx: ControlContext, name: string): Promise<void> {
  assertSnapshotName(name)
  const state = await loadState(ctx.db, name, 'snapshot')
  if (state === undefined) throw notFound()
  await replaceState(ctx, state)
}

export async function deleteSnapshot(ctx: ControlContext, name: string): Promise<void> {
  assertSnapshotName(name)
  if (!(await snapshots.deleteSnapshot(ctx.db, name))) throw notFound()
}

/** The stored file of a snapshot, as `cloudplane snapshot export` writes it. */
export async function exportSnapshot(ctx: ControlContext, name: string): Promise<Buffer> {
  assertSnapshotName(name)
  const row = await snapshots.findSnapshot(ctx.db, name, 'snapshot')
  if (row === undefined) throw notFound()
  return Buffer.from(row.payload, 'base64')
}

export async function importSnapshot(ctx: ControlContext, name: string, bytes: Buffer) {
  assertSnapshotName(name)
  const state = decodeState(bytes)
  if (state === undefined || state.accountId !== undefined) {
    throw badRequest('is not a cloudplane snapshot file (cloudplane snapshot export)', 'body')
  }
  assertRestorable(await stateSchema(ctx.db), state)
  const row = await saveState(ctx.db, name, 'snapshot', state)
  return { name: row.name, created: row.created, size: row.size }
}

/**
 * A file's tables and columns are this database's: a restore of one from another version, or
 * edited, would fail on the first unknown name, so it is refused when imported.
 */
function assertRestorable(schema: StateSchema, state: StateData): void {
  const columns = new Map(schema.tables.map((table) => [table.name, new Set(table.columns)]))
  for (const [name, rows] of Object.entries(state.tables)) {
    const known = columns.get(name)
    if (known === undefined) throw badRequest(`holds a table this server does not have: ${name}`, 'body')
    const unknown = rows.flatMap((row) => Object.keys(row)).find((column) => !known.has(column))
    if (unknown !== undefined) {
      throw badRequest(`holds a column this server does not have: ${name}.${unknown}`, 'body')
    }
  }
}

/** One account's whole state as JSON, for looking at a failing test. */
export async function dumpAccount(ctx: ControlContext, username: string) {
  const found = await findUserAccount(ctx.db, username)
  if (found === undefined) throw badRequest(`no user named "${username}"`, 'username')
  const state = await captureState(ctx.db, { accountId: found.accountId })
  // Hashes, digests and sealed secrets say nothing to a person and need not leave the server.
  const redact = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        /_(hash|digest|sealed)$/.test(k) && v !== null ? '(redacted)' : v,
      ]),
    )
  const tables = Object.fromEntries(
    Object.entries(state.tables).map(([name, rows]) => [name, rows.map(redact)]),
  )
  return { account_id: found.accountId, time: nowTimestamp(ctx.clock), tables }
}
