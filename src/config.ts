import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { loadRegionsFile, type RegionCatalogue, RegionsFileError } from './catalogue/regions-file.ts'
import { type DatabaseTarget, parseDatabaseUrl } from './db/connect.ts'
import { isRateLimitMode, RATE_LIMIT_MODES, type RateLimitMode } from './plugins/rate-limit-modes.ts'
import { ConfigError, SETTINGS, type SettingFlag } from './settings.ts'
import { DEFAULT_NAMING, isNaming, NAMINGS, type Naming } from './vocabulary/naming.ts'

export { ConfigError, SETTINGS, type SettingFlag }

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
  /**
   * How the first start's welcome text shows that token in its example (never the token itself):
   * the variable or the file it came from, as a shell would read it.
   */
  bootstrapTokenHint: string
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
  /** Whether CLOUDPLANE_PUBLIC_URL was set; otherwise `publicUrl` follows the port actually bound. */
  publicUrlConfigured: boolean
  /** Whether CLOUDPLANE_BLOBS_DIR was set; an in-memory database otherwise keeps image data in memory. */
  blobsDirConfigured: boolean
  /** How long a start keeps retrying an unreachable PostgreSQL, in milliseconds (0: no retry). */
  databaseConnectTimeoutMs: number
  /** Whether the `/_cloudplane` control API exists: CLOUDPLANE_CONTROL, else on for SQLite only. */
  control: boolean
  /** With the control API: the request journal (CLOUDPLANE_JOURNAL, on unless off). */
  journal: boolean
  /** List pages kept as sent until their rows change (CLOUDPLANE_KEPT_PAGES, on unless off). */
  keptPages: boolean
  /** The control API's key (CLOUDPLANE_ADMIN_KEY); undefined: generated on first start, printed once. */
  adminKey: string | undefined
  /** A seed file's path and text (CLOUDPLANE_SEED_FILE), read at start-up. */
  seedFile: { path: string; text: string } | undefined
  /** Makes generated values repeatable (CLOUDPLANE_RANDOM_SEED). */
  randomSeed: string | undefined
  /** The wire vocabulary (CLOUDPLANE_NAMING), fixed for a database by its first start. */
  naming: Naming
  /** CLOUDPLANE_RATE_LIMITS: `off` (default; login and phone codes still limited) or `real`. */
  rateLimits: RateLimitMode
  /** CLOUDPLANE_REDIS_URL: where the processes of a deployment count rate limits together. */
  redisUrl: string | undefined
}

/** Flag names of `cloudplane serve`, each overriding its environment variable. */
export const CONFIG_FLAGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([flag, setting]) => [flag, setting.env]),
) as { [F in SettingFlag]: (typeof SETTINGS)[F]['env'] }

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: Partial<Record<SettingFlag, string>> = {},
): Config {
  const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value)
  const flagOf = (name: string) =>
    Object.entries(CONFIG_FLAGS).find(([, v]) => v === name)?.[0] as SettingFlag | undefined
  /** One source (the flags, or the environment): the value, or a secret's file read. */
  const from = (source: (name: string) => string | undefined, name: string): string | undefined => {
    const value = given(source(name))
    if (!SECRET_SETTINGS.has(name)) return value
    const file = given(source(`${name}_FILE`))
    if (file === undefined) return value
    if (value !== undefined) {
      throw new ConfigError(`${name}_FILE`, `set either ${name} or ${name}_FILE, not both`)
    }
    return readSecretFile(`${name}_FILE`, file)
  }
  // A flag (or its file) wins over the environment.
  const get = (name: string): string | undefined =>
    from((n) => {
      const flag = flagOf(n)
      return flag === undefined ? undefined : flags[flag]
    }, name) ?? from((n) => env[n], name)

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

  const timeoutText = get('DATABASE_CONNECT_TIMEOUT') ?? '30'
  if (!/^[0-9]{1,6}$/.test(timeoutText)) {
    throw new ConfigError(
      'DATABASE_CONNECT_TIMEOUT',
      `must be a whole number of seconds (0 or more), got "${timeoutText}"`,
    )
  }
  const databaseConnectTimeoutMs = Number(timeoutText) * 1000

  const logLevel = get('LOG_LEVEL') ?? 'info'
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`)
  }

  const bootstrapTokenAsGiven = get('CLOUDPLANE_BOOTSTRAP_TOKEN')
  const bootstrapToken = bootstrapTokenAsGiven?.toLowerCase()
  if (bootstrapToken !== undefined && !/^[0-9a-f]{64}$/.test(bootstrapToken)) {
    throw new ConfigError('CLOUDPLANE_BOOTSTRAP_TOKEN', 'must be 64 hexadecimal characters')
  }
  const bootstrapTokenHint = tokenHint(
    given(flags['bootstrap-token']) !== undefined,
    given(flags['bootstrap-token-file']) ?? given(env.CLOUDPLANE_BOOTSTRAP_TOKEN_FILE),
    bootstrapTokenAsGiven !== bootstrapToken,
  )

  const secretKeyText = get('CLOUDPLANE_SECRET_KEY')?.toLowerCase()
  if (secretKeyText !== undefined && !/^[0-9a-f]{64}$/.test(secretKeyText)) {
    throw new ConfigError('CLOUDPLANE_SECRET_KEY', 'must be 64 hexadecimal characters')
  }
  const secretKey = secretKeyText === undefined ? undefined : Buffer.from(secretKeyText, 'hex')

  const phoneWebhookUrl = get('CLOUDPLANE_PHONE_WEBHOOK_URL')
  if (phoneWebhookUrl !== undefined && !isHttpUrl(phoneWebhookUrl)) {
    // Not echoed: it may carry a password.
    throw new ConfigError('CLOUDPLANE_PHONE_WEBHOOK_URL', 'must be an http:// or https:// URL')
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

  const blobsDirText = get('CLOUDPLANE_BLOBS_DIR')
  const blobsDir = resolve(blobsDirText ?? resolve(dataDir, 'blobs'))
  const imageUploadLimit = sizeSetting(get, 'CLOUDPLANE_IMAGE_UPLOAD_LIMIT', '5G')
  const imageSizeLimit = sizeSetting(get, 'CLOUDPLANE_IMAGE_SIZE_LIMIT', '6G')

  const control = onOffSetting(get, 'CLOUDPLANE_CONTROL') ?? database.kind === 'sqlite'
  const journal = onOffSetting(get, 'CLOUDPLANE_JOURNAL') ?? true
  const keptPages = onOffSetting(get, 'CLOUDPLANE_KEPT_PAGES') ?? true
  const adminKey = get('CLOUDPLANE_ADMIN_KEY')
  if (adminKey !== undefined && !/^[\x21-\x7e]{16,256}$/.test(adminKey)) {
    throw new ConfigError('CLOUDPLANE_ADMIN_KEY', 'must be 16-256 printable characters without spaces')
  }
  const seedPath = get('CLOUDPLANE_SEED_FILE')
  let seedFile: Config['seedFile']
  if (seedPath !== undefined) {
    try {
      seedFile = { path: resolve(seedPath), text: readFileSync(resolve(seedPath), 'utf8') }
    } catch (error) {
      throw new ConfigError('CLOUDPLANE_SEED_FILE', `cannot read ${seedPath}: ${(error as Error).message}`)
    }
  }

  const naming = get('CLOUDPLANE_NAMING') ?? DEFAULT_NAMING
  if (!isNaming(naming)) {
    throw new ConfigError('CLOUDPLANE_NAMING', `must be ${NAMINGS.join(' or ')}, got "${naming}"`)
  }

  const rateLimits = get('CLOUDPLANE_RATE_LIMITS')?.toLowerCase() ?? 'off'
  if (!isRateLimitMode(rateLimits)) {
    throw new ConfigError(
      'CLOUDPLANE_RATE_LIMITS',
      `must be ${RATE_LIMIT_MODES.join(' or ')}, got "${rateLimits}"`,
    )
  }
  const redisUrl = get('CLOUDPLANE_REDIS_URL')
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) {
    // Not echoed: it may carry a password.
    throw new ConfigError('CLOUDPLANE_REDIS_URL', 'must be a redis:// or rediss:// URL')
  }

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    database,
    logLevel,
    bootstrapToken,
    bootstrapTokenHint,
    secretKey,
    phoneWebhookUrl,
    publicUrl,
    regions,
    blobsDir,
    imageUploadLimit,
    imageSizeLimit,
    publicUrlConfigured: publicUrlText !== undefined,
    blobsDirConfigured: blobsDirText !== undefined,
    databaseConnectTimeoutMs,
    control,
    journal,
    keptPages,
    adminKey,
    seedFile,
    randomSeed: get('CLOUDPLANE_RANDOM_SEED'),
    naming,
    rateLimits,
    redisUrl,
  }
}

/**
 * Settings that hold a secret (or a URL that may carry a password). Each can also be given as a
 * file, `<NAME>_FILE` or `--<flag>-file`, as container images take secrets, so that it shows
 * neither in the process list nor in the environment.
 */
export const SECRET_SETTINGS: ReadonlySet<string> = new Set([
  'DATABASE_URL',
  'CLOUDPLANE_BOOTSTRAP_TOKEN',
  'CLOUDPLANE_SECRET_KEY',
  'CLOUDPLANE_ADMIN_KEY',
  'CLOUDPLANE_PHONE_WEBHOOK_URL',
  'CLOUDPLANE_REDIS_URL',
])

/**
 * A secret from a file: its first line, without the line ending (an editor's or `echo`'s final
 * newline is not part of it). The message of a failure never contains the file's text.
 */
function readSecretFile(setting: string, path: string): string {
  let text: string
  try {
    text = readFileSync(resolve(path), 'utf8')
  } catch (error) {
    throw new ConfigError(
      setting,
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    )
  }
  const value = text.split(/\r?\n/, 1)[0] ?? ''
  if (value === '') throw new ConfigError(setting, `${path} is empty`)
  return value
}

/** `sqlite::memory:`: a database that lives and dies with one process. */
export function isMemoryDatabase(config: Pick<Config, 'database'>): boolean {
  return config.database.kind === 'sqlite' && config.database.location === ':memory:'
}

const SIZE_UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 }

/** A byte count: `5368709120`, `5G`, `512M`, `64K` (binary units; a trailing `B`/`iB` is allowed). */
/** A switch given as on/off (or true/false, 1/0, any case); undefined when not given. */
function onOffSetting(get: (name: string) => string | undefined, name: string): boolean | undefined {
  const text = get(name)?.toLowerCase()
  if (text === undefined) return undefined
  if (!['on', 'off', 'true', 'false', '1', '0'].includes(text)) {
    throw new ConfigError(name, `must be on or off, got "${text}"`)
  }
  return ['on', 'true', '1'].includes(text)
}

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

/**
 * The configured bootstrap token as a shell reads it where it came from: a flag's value is not
 * anywhere a shell can read it again, a file's first line is read with `head`, the variable by name.
 */
function tokenHint(fromFlag: boolean, file: string | undefined, upperCase: boolean): string {
  if (fromFlag) return '<the --bootstrap-token value>'
  // The token is seeded in lower case, as tokens are written: the example reads it so too.
  const lower = upperCase ? ' | tr A-F a-f' : ''
  if (file !== undefined) return `$(head -n 1 -- '${file.replaceAll("'", "'\\''")}'${lower})`
  return upperCase ? `$(printf %s "$CLOUDPLANE_BOOTSTRAP_TOKEN"${lower})` : '$CLOUDPLANE_BOOTSTRAP_TOKEN'
}
