import { resolve } from 'node:path'
import { loadRegionsFile, type RegionCatalogue, RegionsFileError } from './catalogue/regions-file.ts'
import { type DatabaseTarget, parseDatabaseUrl } from './db/connect.ts'

/**
 * The one place that reads the environment. Each setting has an environment variable and a
 * matching `cloudplane serve` flag; a bad value stops start-up with a one-line message naming it.
 */
export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string
  database: DatabaseTarget
  logLevel: string
  /** A fixed personal access token (64 hex) for the default user, or undefined. */
  bootstrapToken: string | undefined
  /** The key (32 bytes) sealing profile secrets; undefined: `<data dir>/secret.key`, created on first start. */
  secretKey: Buffer | undefined
  /** Where phone verification codes are POSTed; undefined: they are written to the server log. */
  phoneWebhookUrl: string | undefined
  /** Base URL clients reach the server at (upload URLs start with it); default from HOST and PORT. */
  publicUrl: string
  /** An operator's region catalogue (REGIONS_FILE), replacing the shipped one. */
  regions: RegionCatalogue | undefined
  /** Where image data is stored; default `<data dir>/blobs`. */
  blobsDir: string
  /** Largest gzip image upload, in bytes (default 5 GB, as the real service). */
  imageUploadLimit: number
  /** Largest uncompressed image, in bytes: stops decompression bombs (default 6 GB). */
  imageSizeLimit: number
}

export class ConfigError extends Error {
  readonly setting: string

  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`)
    this.name = 'ConfigError'
    this.setting = setting
  }
}

/** Flag names of `cloudplane serve`, each overriding its environment variable. */
export const CONFIG_FLAGS = {
  port: 'PORT',
  host: 'HOST',
  'data-dir': 'DATA_DIR',
  'database-url': 'DATABASE_URL',
  'log-level': 'LOG_LEVEL',
  'bootstrap-token': 'CLOUDPLANE_BOOTSTRAP_TOKEN',
  'secret-key': 'CLOUDPLANE_SECRET_KEY',
  'phone-webhook-url': 'CLOUDPLANE_PHONE_WEBHOOK_URL',
  'public-url': 'CLOUDPLANE_PUBLIC_URL',
  'regions-file': 'CLOUDPLANE_REGIONS_FILE',
  'blobs-dir': 'CLOUDPLANE_BLOBS_DIR',
  'image-upload-limit': 'CLOUDPLANE_IMAGE_UPLOAD_LIMIT',
  'image-size-limit': 'CLOUDPLANE_IMAGE_SIZE_LIMIT',
} as const

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: Partial<Record<keyof typeof CONFIG_FLAGS, string>> = {},
): Config {
  const get = (name: string): string | undefined => {
    const flag = Object.entries(CONFIG_FLAGS).find(([, v]) => v === name)?.[0] as keyof typeof CONFIG_FLAGS
    const value = flags[flag] ?? env[name]
    return value === undefined || value === '' ? undefined : value
  }

  const portText = get('PORT') ?? '8080'
  const port = Number(portText)
  if (!/^[0-9]+$/.test(portText) || port > 65535) {
    throw new ConfigError('PORT', `must be a port number (0-65535), got "${portText}"`)
  }

  const host = get('HOST') ?? '127.0.0.1'

  const dataDir = resolve(get('DATA_DIR') ?? './data')

  const databaseUrl = get('DATABASE_URL') ?? `sqlite:${resolve(dataDir, 'cloudplane.db')}`
  const database = parseDatabaseUrl(databaseUrl)
  if (database === undefined) {
    throw new ConfigError('DATABASE_URL', 'must be sqlite:<file>, sqlite::memory: or postgres://…')
  }

  const logLevel = get('LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }

  const bootstrapToken = get('CLOUDPLANE_BOOTSTRAP_TOKEN')?.toLowerCase()
  if (bootstrapToken !== undefined && !/^[0-9a-f]{64}$/.test(bootstrapToken)) {
    throw new ConfigError('CLOUDPLANE_BOOTSTRAP_TOKEN', 'must be 64 hexadecimal characters')
  }

  const secretKeyText = get('CLOUDPLANE_SECRET_KEY')?.toLowerCase()
  if (secretKeyText !== undefined && !/^[0-9a-f]{64}$/.test(secretKeyText)) {
    throw new ConfigError('CLOUDPLANE_SECRET_KEY', 'must be 64 hexadecimal characters')
  }
  const secretKey = secretKeyText === undefined ? undefined : Buffer.from(secretKeyText, 'hex')

  const phoneWebhookUrl = get('CLOUDPLANE_PHONE_WEBHOOK_URL')
  if (phoneWebhookUrl !== undefined && !isHttpUrl(phoneWebhookUrl)) {
    throw new ConfigError(
      'CLOUDPLANE_PHONE_WEBHOOK_URL',
      `must be an http:// or https:// URL, got "${phoneWebhookUrl}"`,
    )
  }

  const publicUrlText = get('CLOUDPLANE_PUBLIC_URL')
  if (publicUrlText !== undefined && (!isHttpUrl(publicUrlText) || /[?#]/.test(publicUrlText))) {
    throw new ConfigError(
      'CLOUDPLANE_PUBLIC_URL',
      `must be an http:// or https:// URL without ? or #, got "${publicUrlText}"`,
    )
  }
  const publicUrl = (publicUrlText ?? baseUrl({ host, port })).replace(/\/+$/, '')

  const regionsFile = get('CLOUDPLANE_REGIONS_FILE')
  let regions: RegionCatalogue | undefined
  try {
    regions = regionsFile === undefined ? undefined : loadRegionsFile(resolve(regionsFile))
  } catch (error) {
    if (error instanceof RegionsFileError) throw new ConfigError('CLOUDPLANE_REGIONS_FILE', error.message)
    throw error
  }

  const blobsDir = resolve(get('CLOUDPLANE_BLOBS_DIR') ?? resolve(dataDir, 'blobs'))
  const imageUploadLimit = sizeSetting(get, 'CLOUDPLANE_IMAGE_UPLOAD_LIMIT', '5G')
  const imageSizeLimit = sizeSetting(get, 'CLOUDPLANE_IMAGE_SIZE_LIMIT', '6G')

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    database,
    logLevel,
    bootstrapToken,
    secretKey,
    phoneWebhookUrl,
    publicUrl,
    regions,
    blobsDir,
    imageUploadLimit,
    imageSizeLimit,
  }
}

const SIZE_UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }

/** A byte count: `5368709120`, `5G`, `512M`, `64K` (binary units; a trailing `B`/`iB` is allowed). */
function sizeSetting(get: (name: string) => string | undefined, name: string, fallback: string): number {
  const text = get(name) ?? fallback
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:i?B)?$/i.exec(text.trim())
  const bytes = m
    ? Math.floor(Number(m[1]) * (SIZE_UNITS[(m[2] ?? '').toUpperCase()] ?? Number.NaN))
    : Number.NaN
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ConfigError(name, `must be a size such as 5G, 512M or a number of bytes, got "${text}"`)
  }
  return bytes
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

/** The URL to show users; a wildcard listen address is reached through loopback. */
export function baseUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`
}
