import { SCOPE_CATEGORIES, type ScopeSet } from '../auth/scopes.ts'

/** What each scope category covers, in words a user deciding on consent can read. */
const CATEGORY_WORDS: Record<(typeof SCOPE_CATEGORIES)[number], string> = {
  account: 'your account and profile: users, apps, tokens, settings',
  databases: 'your managed databases',
  domains: 'your domains and their DNS records',
  events: 'the events of your account',
  firewall: 'your cloud firewalls',
  images: 'your images',
  ips: 'your IP addresses',
  computes: 'your compute instances',
  lke: 'your Kubernetes clusters',
  longview: 'your Longview clients',
  nodebalancers: 'your NodeBalancers',
  object_storage: 'your Object Storage buckets and keys',
  stackscripts: 'your StackScripts',
  volumes: 'your block storage volumes',
  vpc: 'your VPCs and their subnets',
}

/** One sentence per scope, in catalogue order. */
export function describeScopes(scopes: ScopeSet): string[] {
  if (scopes.all) return ['Read and change everything in your account, with all of your permissions']
  return SCOPE_CATEGORIES.flatMap((category) => {
    const level = scopes.levels.get(category)
    if (level === undefined) return []
    const verb = level === 'read_write' ? 'View and change' : 'View'
    return [`${verb} ${CATEGORY_WORDS[category]}`]
  })
}
