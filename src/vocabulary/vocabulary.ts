import type { Naming } from './naming.ts'
import type { KeysKind, TermKind } from './terms.ts'

/**
 * One wire vocabulary: every name that differs between the API document and the real service.
 * The domain keeps the document's words internally; routes, serializers, scope parsing, the
 * X-Filter and error reasons translate through this, and nothing else names the real words.
 */
export interface Vocabulary {
  readonly naming: Naming
  /** True for the document's words: nothing to translate. */
  readonly identity: boolean
  /**
   * Whether answers carry the fields the service added after the document's version, which the
   * real service's clients read (docs/decisions.md, "Fields of later versions"). Most are
   * completed here (`keys`); those rendered by the database ask for them.
   */
  readonly laterFields: boolean
  /** A route path (without the API root) as served. */
  path(internal: string): string
  /** A vocabulary value on the wire. */
  toWire(kind: TermKind, internal: string): string
  /**
   * A value a client sent, in the domain's words. The other vocabulary's scope categories are made
   * unknown (a token asking for them is refused); other values without a wire word pass as sent.
   */
  fromWire(kind: TermKind, wire: string): string
  /** How an object's keys are renamed, ordered and completed on the wire. */
  keys(kind: KeysKind): KeyMap
  /** A schema's own text about a vocabulary value (its pattern, examples, reason) as documented. */
  schemaText(kind: TermKind, text: string): string
  /** An error reason as sent (the product word in it). */
  reason(text: string): string
  /** The label a new instance gets when none is given: `<prefix><id>`. */
  readonly defaultInstanceLabelPrefix: string
}

export interface KeyMap {
  /** internal key → wire key */
  readonly rename: Readonly<Record<string, string>>
  /** Wire keys in the order the real service sends them (others follow in schema order). */
  readonly order?: readonly string[]
  /** Keys only the real service has, with the value it returns and the wire key whose schema it shares. */
  readonly extra?: readonly { key: string; value: unknown; schemaLike?: string; schema?: object }[]
}

/** `from` → `to` for whole values. */
type Pairs = readonly (readonly [string, string])[]

/** The complete table of the document's words and the real service's (issue: "a second vocabulary"). */
const REAL = {
  paths: [
    ['/compute/instances', '/linode/instances'],
    ['/compute/types', '/linode/types'],
    ['/compute/scripts', '/linode/stackscripts'],
    ['/loadbalancers', '/nodebalancers'],
    ['/images/compute', '/images/linode'],
  ],
  imagePrefix: ['compute/', 'linode/'],
  creator: [['compute', 'linode']],
  capability: [
    ['Computes', 'Linodes'],
    ['GPU Computes', 'GPU Linodes'],
  ],
  actionPrefix: ['compute_', 'linode_'],
  entityType: [
    ['compute', 'linode'],
    ['compute_config', 'linode_config'],
    ['loadbalancer', 'nodebalancer'],
    ['script', 'stackscript'],
  ],
  scopeCategory: [['computes', 'linodes']],
  typeLabelPrefix: ['Compute ', 'Linode '],
  reasonWords: [
    ['Computes', 'Linodes'],
    ['Compute', 'Linode'],
    ['Scripts', 'StackScripts'],
    ['Script', 'StackScript'],
    ['load balancers', 'NodeBalancers'],
  ],
  grants: [
    ['compute', 'linode'],
    ['loadbalancer', 'nodebalancer'],
    ['script', 'stackscript'],
    ['monitoring', 'longview'],
  ],
  globalGrants: [
    ['add_computes', 'add_linodes'],
    ['add_loadbalancers', 'add_nodebalancers'],
    ['add_scripts', 'add_stackscripts'],
    ['add_monitoring', 'add_longview'],
    ['monitoring_subscription', 'longview_subscription'],
  ],
  profile: [['shell_auth_method', 'lish_auth_method']],
} as const satisfies Record<string, Pairs | readonly [string, string]>

const IDENTITY_KEYS: KeyMap = { rename: {} }

// Schemas of the fields only the real naming sends (docs/decisions.md, "Fields of later versions").
const NULLABLE_STRING = { anyOf: [{ type: 'string' }, { type: 'null' }] }
const NULLABLE_BOOLEAN = { anyOf: [{ type: 'boolean' }, { type: 'null' }] }
const NULLABLE_INTEGER = { anyOf: [{ type: 'integer' }, { type: 'null' }] }
const SLAAC_ADDRESSES = {
  type: 'array',
  items: { type: 'object', properties: { slaac_address: { type: 'string' } }, required: ['slaac_address'] },
}
/** A region's placement-group limits as recordings of the real service show them (2024). */
const PLACEMENT_GROUP_LIMITS = { maximum_pgs_per_customer: 100, maximum_linodes_per_pg: 5 }
const PLACEMENT_GROUP_LIMITS_SCHEMA = {
  type: 'object',
  properties: {
    maximum_pgs_per_customer: NULLABLE_INTEGER,
    maximum_linodes_per_pg: { type: 'integer' },
  },
  required: ['maximum_pgs_per_customer', 'maximum_linodes_per_pg'],
}

export const DOCUMENT_VOCABULARY: Vocabulary = {
  naming: 'document',
  identity: true,
  laterFields: false,
  path: (internal) => internal,
  toWire: (_kind, internal) => internal,
  fromWire: (_kind, wire) => wire,
  keys: () => IDENTITY_KEYS,
  schemaText: (_kind, text) => text,
  reason: (text) => text,
  defaultInstanceLabelPrefix: 'compute',
}

const lookup = (pairs: Pairs, reverse: boolean) => new Map(pairs.map(([a, b]) => (reverse ? [b, a] : [a, b])))

/** Replaces a leading `from` with `to`, on a path-segment (or word) boundary. */
function swapPrefix(text: string, from: string, to: string, boundary: RegExp): string {
  if (!text.startsWith(from)) return text
  const rest = text.slice(from.length)
  return rest === '' || boundary.test(rest) ? to + rest : text
}

function pathOf(pairs: Pairs, path: string): string {
  for (const [from, to] of pairs) {
    const swapped = swapPrefix(path, from, to, /^\//)
    if (swapped !== path) return swapped
  }
  return path
}

/** `a:read_only b:read_write` with each category swapped; separators kept as sent. */
function scopesOf(text: string, categories: Map<string, string>, unknown: Set<string>): string {
  return text.replace(/[^\s,:]+(?=:)/g, (category) =>
    unknown.has(category) ? `?${category}` : (categories.get(category) ?? category),
  )
}

function realVocabulary(): Vocabulary {
  const [docImage, realImage] = REAL.imagePrefix
  const [docAction, realAction] = REAL.actionPrefix
  const [docLabel, realLabel] = REAL.typeLabelPrefix
  const tables = {
    creator: [lookup(REAL.creator, false), lookup(REAL.creator, true)],
    capability: [lookup(REAL.capability, false), lookup(REAL.capability, true)],
    entityType: [lookup(REAL.entityType, false), lookup(REAL.entityType, true)],
  } as const
  const scopeToWire = lookup(REAL.scopeCategory, false)
  const scopeFromWire = lookup(REAL.scopeCategory, true)
  // The document's own categories mean nothing here: a token asking for them is refused.
  const documentOnlyScopes = new Set(REAL.scopeCategory.map(([doc]) => doc as string))
  const reversedPaths = REAL.paths.map(([a, b]) => [b, a] as const)

  const translate = (kind: TermKind, value: string, toWire: boolean): string => {
    switch (kind) {
      case 'imageId':
        return toWire
          ? swapPrefix(value, docImage, realImage, /^/)
          : swapPrefix(value, realImage, docImage, /^/)
      case 'eventAction':
        return toWire
          ? swapPrefix(value, docAction, realAction, /^/)
          : swapPrefix(value, realAction, docAction, /^/)
      case 'typeLabel':
        return toWire
          ? swapPrefix(value, docLabel, realLabel, /^/)
          : swapPrefix(value, realLabel, docLabel, /^/)
      case 'apiUrl': {
        const m = /^(\/v4(?:beta)?)(\/.*)$/.exec(value)
        if (!m) return value
        return `${m[1]}${pathOf(toWire ? REAL.paths : reversedPaths, m[2] as string)}`
      }
      case 'scopes':
        return toWire
          ? scopesOf(value, scopeToWire, new Set())
          : scopesOf(value, scopeFromWire, documentOnlyScopes)
      case 'creator':
      case 'capability':
      case 'entityType':
        return tables[kind][toWire ? 0 : 1].get(value) ?? value
    }
  }

  const keyMaps: Record<KeysKind, KeyMap> = {
    grants: {
      rename: Object.fromEntries(REAL.grants),
      order: [
        'linode',
        'nodebalancer',
        'domain',
        'stackscript',
        'longview',
        'image',
        'volume',
        'firewall',
        'database',
        'lkecluster',
        'vpc',
        'global',
      ],
      extra: [
        { key: 'firewall', value: [], schemaLike: 'volume' },
        { key: 'lkecluster', value: [], schemaLike: 'volume' },
      ],
    },
    globalGrants: {
      rename: Object.fromEntries(REAL.globalGrants),
      // As recorded (linodego TestUserGrants_Update); flags that recording predates follow.
      order: [
        'add_domains',
        'add_linodes',
        'add_longview',
        'longview_subscription',
        'add_stackscripts',
        'add_nodebalancers',
        'add_images',
        'add_volumes',
        'add_firewalls',
        'account_access',
        'cancel_account',
      ],
      // No Kubernetes and no parent or child accounts here: nothing to grant.
      extra: [
        { key: 'add_kubernetes', value: false, schemaLike: 'add_domains' },
        { key: 'add_lkes', value: false, schemaLike: 'add_domains' },
        { key: 'child_account_access', value: null, schema: NULLABLE_BOOLEAN },
      ],
    },
    profile: {
      rename: Object.fromEntries(REAL.profile),
      extra: [{ key: 'user_type', value: 'default', schema: { type: 'string' } }],
    },
    user: { rename: {}, extra: [{ key: 'user_type', value: 'default', schema: { type: 'string' } }] },
    // Every record is an instance's IPv4 address or range: no IPv6 and no load balancer.
    vpcIp: {
      rename: {},
      extra: [
        { key: 'ipv6_range', value: null, schema: NULLABLE_STRING },
        { key: 'ipv6_is_public', value: null, schema: NULLABLE_BOOLEAN },
        { key: 'ipv6_addresses', value: [], schema: SLAAC_ADDRESSES },
        { key: 'nodebalancer_id', value: null, schema: NULLABLE_INTEGER },
      ],
    },
    region: {
      rename: {},
      extra: [
        {
          key: 'placement_group_limits',
          value: PLACEMENT_GROUP_LIMITS,
          schema: PLACEMENT_GROUP_LIMITS_SCHEMA,
        },
      ],
    },
  }

  const reasonWords = new RegExp(
    `(?<=^|\\s)(${REAL.reasonWords.map(([doc]) => doc).join('|')})(?=$|[\\s.,;:])`,
    'g',
  )
  const reasonTable = lookup(REAL.reasonWords, false)

  return {
    naming: 'linode',
    identity: false,
    laterFields: true,
    path: (internal) => pathOf(REAL.paths, internal),
    toWire: (kind, internal) => translate(kind, internal, true),
    fromWire: (kind, wire) => translate(kind, wire, false),
    keys: (kind) => keyMaps[kind],
    schemaText: (kind, text) => (kind === 'imageId' ? text.replaceAll(docImage, realImage) : text),
    reason: (text) => text.replace(reasonWords, (word) => reasonTable.get(word) ?? word),
    defaultInstanceLabelPrefix: 'linode',
  }
}

export const LINODE_VOCABULARY: Vocabulary = realVocabulary()

export function vocabularyFor(naming: Naming): Vocabulary {
  return naming === 'linode' ? LINODE_VOCABULARY : DOCUMENT_VOCABULARY
}
