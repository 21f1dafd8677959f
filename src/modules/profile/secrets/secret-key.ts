import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ConfigError } from '../../../config.ts'
import type { Db } from '../../../db/connect.ts'
import { getMeta, insertMetaIfAbsent } from '../../../db/meta.repository.ts'
import type { SecretBox } from './secret-box.ts'

export const SECRET_KEY_FILE = 'secret.key'
const KEY_PATTERN = /^[0-9a-f]{64}$/

/**
 * The server key when none is configured: `<data dir>/secret.key`, created on first start (mode
 * 0600). Creation is atomic (write a temporary file, then hard-link it into place), so processes
 * starting together on one data directory all end up with the same key.
 */
export function loadOrCreateSecretKey(dataDir: string): Buffer {
  const path = join(dataDir, SECRET_KEY_FILE)
  const existing = readKeyFile(path)
  if (existing !== undefined) return existing
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 })
  try {
    linkSync(temporary, path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    unlinkSync(temporary)
  }
  const created = readKeyFile(path)
  if (created === undefined) throw new ConfigError('CLOUDPLANE_SECRET_KEY', `${path} does not hold a key`)
  return created
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string
  try {
    text = readFileSync(path, 'utf8').trim().toLowerCase()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  if (!KEY_PATTERN.test(text)) {
    throw new ConfigError('CLOUDPLANE_SECRET_KEY', `${path} must hold 64 hexadecimal characters`)
  }
  return Buffer.from(text, 'hex')
}

/**
 * Records the key's fingerprint on first start and refuses to start with another key: a process
 * with the wrong key could not open the secrets the others sealed (several processes on one
 * PostgreSQL database must share CLOUDPLANE_SECRET_KEY).
 */
export async function assertSameSecretKey(db: Db, box: SecretBox): Promise<void> {
  const fingerprint = box.fingerprint()
  await insertMetaIfAbsent(db, 'secret_key_fingerprint', fingerprint)
  const stored = await getMeta(db, 'secret_key_fingerprint')
  if (stored !== undefined && stored !== fingerprint) {
    throw new ConfigError(
      'CLOUDPLANE_SECRET_KEY',
      'differs from the key this database was first used with; every process must use the same key',
    )
  }
}
