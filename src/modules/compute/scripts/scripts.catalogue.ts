import {
  count,
  fail,
  firstRepeat,
  names,
  object,
  onlyKeys,
  shippedCatalogue,
  text,
  timestamp,
} from '../../../catalogue/catalogue-json.ts'
import data from '../../../catalogue/data/scripts.json' with { type: 'json' }

/**
 * The public scripts every account sees (catalogue/data/scripts.json): a few common set-ups by
 * the service and by community authors, with their deployment counts. `key` names a script in the
 * file, so a new release updates it in place and its id never changes.
 */
export interface CatalogueScript {
  key: string
  username: string
  label: string
  description: string
  images: string[]
  rev_note: string
  created: string
  updated: string
  deployments_total: number
  deployments_active: number
  script: string
}

const KEYS = new Set([
  'key',
  'username',
  'label',
  'description',
  'images',
  'rev_note',
  'created',
  'updated',
  'deployments_total',
  'deployments_active',
  'script',
])

function parseScript(value: unknown, where: string): CatalogueScript {
  const item = object(value, where)
  onlyKeys(item, KEYS, where)
  const script = text(item.script, `${where}.script`, 1_048_576)
  if (!script.startsWith('#!')) fail(`${where}.script must begin with a shebang (#!)`)
  const optionalText = (v: unknown, at: string) => (v === '' ? '' : text(v, at, 65_000))
  return {
    key: text(item.key, `${where}.key`, 64),
    username: text(item.username, `${where}.username`, 64),
    label: text(item.label, `${where}.label`, 128),
    description: optionalText(item.description, `${where}.description`),
    images: names(item.images, `${where}.images`, 64),
    rev_note: optionalText(item.rev_note, `${where}.rev_note`),
    created: timestamp(item.created, `${where}.created`),
    updated: timestamp(item.updated, `${where}.updated`),
    deployments_total: count(item.deployments_total, `${where}.deployments_total`),
    deployments_active: count(item.deployments_active, `${where}.deployments_active`),
    script,
  }
}

export function parseScriptCatalogue(value: unknown): CatalogueScript[] {
  const file = object(value, 'the file')
  onlyKeys(file, new Set(['scripts']), 'the file')
  if (!Array.isArray(file.scripts)) fail('scripts must be an array')
  const scripts = file.scripts.map((s, i) => parseScript(s, `scripts[${i}]`))
  const repeat = firstRepeat(scripts, (s) => s.key)
  if (repeat !== undefined) fail(`scripts[${repeat}].key repeats an earlier script's`)
  return scripts
}

/** The shipped public scripts, validated once at start. */
export const PUBLIC_SCRIPTS: CatalogueScript[] = shippedCatalogue('scripts.json', () =>
  parseScriptCatalogue(data),
)
