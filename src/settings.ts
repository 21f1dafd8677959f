/**
 * The settings' names, flags and help lines, and the error that names a bad one: plain data with
 * no imports, so that `cloudplane --help` and usage errors answer without loading the server.
 */

export class ConfigError extends Error {
  readonly setting: string

  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`)
    this.name = 'ConfigError'
    this.setting = setting
  }
}

/**
 * Every setting: its `cloudplane serve` flag (which overrides the environment variable), the
 * variable, and the one line `--help` shows.
 */
export const SETTINGS = {
  port: { env: 'PORT', value: '<port>', help: 'port to listen on; 0 picks a free one [8080]' },
  host: { env: 'HOST', value: '<address>', help: 'address to listen on [127.0.0.1]' },
  'data-dir': {
    env: 'DATA_DIR',
    value: '<dir>',
    help: 'folder for the SQLite file, secret key and blobs [./data]',
  },
  'database-url': {
    env: 'DATABASE_URL',
    value: '<url>',
    help: 'sqlite:<file>, sqlite::memory: or postgres://user@host:5432/db[?schema=name]',
  },
  'database-url-file': {
    env: 'DATABASE_URL_FILE',
    value: '<file>',
    help: 'the database URL from the first line of a file (one with a password)',
  },
  'database-connect-timeout': {
    env: 'DATABASE_CONNECT_TIMEOUT',
    value: '<seconds>',
    help: 'how long to retry an unreachable PostgreSQL at start [30]',
  },
  'log-level': {
    env: 'LOG_LEVEL',
    value: '<level>',
    help: 'fatal, error, warn, info, debug, trace or silent [info]',
  },
  'bootstrap-token': {
    env: 'CLOUDPLANE_BOOTSTRAP_TOKEN',
    value: '<64 hex>',
    help: "the default user's token, instead of a random one printed once",
  },
  'bootstrap-token-file': {
    env: 'CLOUDPLANE_BOOTSTRAP_TOKEN_FILE',
    value: '<file>',
    help: "the default user's token from the first line of a file",
  },
  'secret-key': {
    env: 'CLOUDPLANE_SECRET_KEY',
    value: '<64 hex>',
    help: 'key sealing profile secrets [<data dir>/secret.key]',
  },
  'secret-key-file': {
    env: 'CLOUDPLANE_SECRET_KEY_FILE',
    value: '<file>',
    help: 'the key sealing profile secrets from the first line of a file',
  },
  'phone-webhook-url': {
    env: 'CLOUDPLANE_PHONE_WEBHOOK_URL',
    value: '<url>',
    help: 'where phone codes are POSTed [the server log]',
  },
  'phone-webhook-url-file': {
    env: 'CLOUDPLANE_PHONE_WEBHOOK_URL_FILE',
    value: '<file>',
    help: 'the phone webhook URL from the first line of a file',
  },
  'public-url': {
    env: 'CLOUDPLANE_PUBLIC_URL',
    value: '<url>',
    help: 'base URL clients reach the server at [from host and port]',
  },
  'regions-file': {
    env: 'CLOUDPLANE_REGIONS_FILE',
    value: '<file>',
    help: 'a region catalogue replacing the shipped one',
  },
  'blobs-dir': {
    env: 'CLOUDPLANE_BLOBS_DIR',
    value: '<dir>',
    help: 'where image data is stored [<data dir>/blobs]',
  },
  'image-upload-limit': {
    env: 'CLOUDPLANE_IMAGE_UPLOAD_LIMIT',
    value: '<size>',
    help: 'largest gzip image upload, e.g. 512M [5G]',
  },
  'image-size-limit': {
    env: 'CLOUDPLANE_IMAGE_SIZE_LIMIT',
    value: '<size>',
    help: 'largest uncompressed image [6G]',
  },
  control: {
    env: 'CLOUDPLANE_CONTROL',
    value: 'on|off',
    help: 'the /_cloudplane control API (reset, snapshots, seed, clock) [on for SQLite, off for PostgreSQL]',
  },
  journal: {
    env: 'CLOUDPLANE_JOURNAL',
    value: 'on|off',
    help: 'with the control API: record every API request in the request journal [on]',
  },
  'kept-pages': {
    env: 'CLOUDPLANE_KEPT_PAGES',
    value: 'on|off',
    help: "keep each caller's list pages as sent until their rows change; off renders every page [on]",
  },
  'admin-key': {
    env: 'CLOUDPLANE_ADMIN_KEY',
    value: '<key>',
    help: "the control API's key, instead of a random one printed once",
  },
  'admin-key-file': {
    env: 'CLOUDPLANE_ADMIN_KEY_FILE',
    value: '<file>',
    help: "the control API's key from the first line of a file",
  },
  'seed-file': {
    env: 'CLOUDPLANE_SEED_FILE',
    value: '<file>',
    help: 'a seed file (JSON or YAML) loaded on the start that creates the database',
  },
  naming: {
    env: 'CLOUDPLANE_NAMING',
    value: 'document|linode',
    help: "wire names: the API document's (compute) or the real service's, for its official clients [document]",
  },
  'rate-limits': {
    env: 'CLOUDPLANE_RATE_LIMITS',
    value: 'off|real',
    help: "the real service's request rate limits (429); login and phone codes are always limited [off]",
  },
  'redis-url': {
    env: 'CLOUDPLANE_REDIS_URL',
    value: '<url>',
    help: 'a Redis (redis://host:6379) where every process of a deployment counts rate limits together',
  },
  'redis-url-file': {
    env: 'CLOUDPLANE_REDIS_URL_FILE',
    value: '<file>',
    help: 'the Redis URL from the first line of a file (one with a password)',
  },
  'random-seed': {
    env: 'CLOUDPLANE_RANDOM_SEED',
    value: '<text>',
    help: 'makes generated tokens, secrets and codes repeatable (tests only)',
  },
} as const

export type SettingFlag = keyof typeof SETTINGS
