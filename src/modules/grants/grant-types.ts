/**
 * The grant vocabulary of the API document (Grants response): entity keys and `global` flags, with
 * the document's neutral words (`compute`, `monitoring`, `loadbalancer`, `script`).
 */
export const GRANT_ENTITY_TYPES = [
  'compute',
  'database',
  'domain',
  'image',
  'loadbalancer',
  'monitoring',
  'script',
  'volume',
  'vpc',
] as const
export type GrantEntityType = (typeof GRANT_ENTITY_TYPES)[number]

export const GLOBAL_GRANT_FLAGS = [
  'add_databases',
  'add_domains',
  'add_firewalls',
  'add_images',
  'add_computes',
  'add_monitoring',
  'add_loadbalancers',
  'add_scripts',
  'add_volumes',
  'add_vpcs',
  'cancel_account',
  'monitoring_subscription',
] as const
export type GlobalGrantFlag = (typeof GLOBAL_GRANT_FLAGS)[number]

export type Permission = 'read_only' | 'read_write'
export const PERMISSIONS: readonly Permission[] = ['read_only', 'read_write']

export const ACCOUNT_ACCESS = ['read_only', 'read_write'] as const
