import type { GrantEntityType } from './grant-types.ts'

/**
 * Where each grantable entity lives, so the grants document can list every entity of an account
 * with its label. Each table has `id`, `account_id` and the label column. Entity kinds that
 * cloudplane does not implement have no table and are always empty.
 */
export interface GrantEntityTable {
  table: string
  label: string
  /** Extra SQL condition on the table (e.g. only private images), or undefined. */
  where?: string
}

export const GRANT_ENTITY_TABLES: Partial<Record<GrantEntityType, GrantEntityTable>> = {
  image: { table: 'images', label: 'label', where: 'is_public = false' },
  vpc: { table: 'vpcs', label: 'label' },
  compute: { table: 'compute_instances', label: 'label' },
  loadbalancer: { table: 'loadbalancers', label: 'label' },
  script: { table: 'scripts', label: 'label' },
  volume: { table: 'volumes', label: 'label' },
  domain: { table: 'domains', label: 'domain' },
}
