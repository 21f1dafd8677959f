import { readFileSync } from 'node:fs'
import { type CatalogueAvailability, type CatalogueRegion, defaultAvailability } from './regions.ts'

/**
 * An operator's own region catalogue (REGIONS_FILE), replacing the shipped one. A JSON file:
 *
 *   {
 *     "regions": [
 *       { "id": "lab-ams", "label": "Amsterdam, NL", "country": "nl",
 *         "capabilities": ["Computes", "VPCs", "Premium Plans"],
 *         "resolvers": { "ipv4": "10.0.0.53, 10.0.1.53", "ipv6": "fd00::53" },
 *         "site_type": "core" }
 *     ],
 *     "availability": [ { "region": "lab-ams", "plan": "premium4096.7", "available": true } ]
 *   }
 *
 * `site_type` defaults to `core`. Without `availability`, every region gets the shipped plan list,
 * premium plans available where the region has `Premium Plans`. A region's status is not part of
 * the file: it is operational state, set with `cloudplane region status <id> outage|ok`.
 */
export interface RegionCatalogue {
  regions: CatalogueRegion[]
  availability: CatalogueAvailability[]
}

export class RegionsFileError extends Error {}

const REGION_ID = /^[a-z0-9]+(-[a-z0-9]+)*$/
const REGION_KEYS = new Set(['id', 'label', 'country', 'capabilities', 'resolvers', 'site_type'])
const AVAILABILITY_KEYS = new Set(['region', 'plan', 'available'])

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function fail(message: string): never {
  throw new RegionsFileError(message)
}

function text(value: unknown, where: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    fail(`${where} must be a non-empty string of at most ${max} characters`)
  }
  return value
}

function onlyKeys(value: Json, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(value)) {
    if (key === 'status' && allowed === REGION_KEYS) {
      fail(
        `${where}.status is not part of the catalogue; set it with: cloudplane region status <id> outage|ok`,
      )
    }
    if (!allowed.has(key)) fail(`${where}.${key} is not a known field (allowed: ${[...allowed].join(', ')})`)
  }
}

function parseRegion(value: unknown, where: string): CatalogueRegion {
  if (!isObject(value)) fail(`${where} must be an object`)
  onlyKeys(value, REGION_KEYS, where)
  const id = text(value.id, `${where}.id`, 64)
  if (!REGION_ID.test(id)) fail(`${where}.id must be lowercase letters and digits in dash-separated words`)
  const country = value.country
  if (typeof country !== 'string' || !/^[a-z]{2}$/.test(country)) {
    fail(`${where}.country must be a two-letter lowercase country code`)
  }
  const capabilities = value.capabilities
  if (!Array.isArray(capabilities)) fail(`${where}.capabilities must be an array of strings`)
  for (const [i, c] of capabilities.entries()) text(c, `${where}.capabilities[${i}]`, 100)
  if (new Set(capabilities).size !== capabilities.length) fail(`${where}.capabilities has duplicates`)
  const resolvers = value.resolvers
  if (!isObject(resolvers)) fail(`${where}.resolvers must be an object with ipv4 and ipv6`)
  onlyKeys(resolvers, new Set(['ipv4', 'ipv6']), `${where}.resolvers`)
  return {
    id,
    label: text(value.label, `${where}.label`, 100),
    country,
    capabilities: capabilities as string[],
    resolvers: {
      ipv4: text(resolvers.ipv4, `${where}.resolvers.ipv4`, 1000),
      ipv6: text(resolvers.ipv6, `${where}.resolvers.ipv6`, 1000),
    },
    status: 'ok',
    site_type: value.site_type === undefined ? 'core' : text(value.site_type, `${where}.site_type`, 32),
  }
}

function parseAvailability(value: unknown, where: string, regionIds: Set<string>): CatalogueAvailability {
  if (!isObject(value)) fail(`${where} must be an object`)
  onlyKeys(value, AVAILABILITY_KEYS, where)
  const region = text(value.region, `${where}.region`, 64)
  if (!regionIds.has(region)) fail(`${where}.region "${region}" is not a region of the file`)
  if (typeof value.available !== 'boolean') fail(`${where}.available must be true or false`)
  return { region, plan: text(value.plan, `${where}.plan`, 64), available: value.available }
}

/** Validates a parsed catalogue; the error names the first offending field. */
export function parseRegionCatalogue(document: unknown): RegionCatalogue {
  if (!isObject(document)) fail('must hold a JSON object with a "regions" array')
  onlyKeys(document, new Set(['regions', 'availability']), '(file)')
  const list = document.regions
  if (!Array.isArray(list) || list.length === 0) fail('regions must be a non-empty array')
  const regions = list.map((r, i) => parseRegion(r, `regions[${i}]`))
  const ids = new Set<string>()
  for (const [i, region] of regions.entries()) {
    if (ids.has(region.id)) fail(`regions[${i}].id "${region.id}" appears twice`)
    ids.add(region.id)
  }
  if (document.availability === undefined) return { regions, availability: defaultAvailability(regions) }
  if (!Array.isArray(document.availability)) fail('availability must be an array')
  const availability = document.availability.map((a, i) => parseAvailability(a, `availability[${i}]`, ids))
  const pairs = new Set<string>()
  for (const [i, a] of availability.entries()) {
    const pair = `${a.region}\u0000${a.plan}`
    if (pairs.has(pair)) fail(`availability[${i}] repeats region "${a.region}" plan "${a.plan}"`)
    pairs.add(pair)
  }
  return { regions, availability }
}

export function loadRegionsFile(path: string): RegionCatalogue {
  let content: string
  try {
    content = readFileSync(path, 'utf8')
  } catch (error) {
    fail(`cannot read ${path}: ${(error as Error).message}`)
  }
  let document: unknown
  try {
    document = JSON.parse(content)
  } catch (error) {
    fail(`${path} is not valid JSON: ${(error as Error).message}`)
  }
  return parseRegionCatalogue(document)
}
