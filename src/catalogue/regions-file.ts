import {
  CatalogueFileError,
  fail,
  firstRepeat,
  flag,
  isObject,
  names,
  object,
  onlyKeys,
  readJsonFile,
  shippedCatalogue,
  slugId,
  text,
} from './catalogue-json.ts'
import data from './data/regions.json' with { type: 'json' }
import { type CatalogueAvailability, type CatalogueRegion, defaultAvailability } from './regions.ts'

/**
 * A region catalogue: the shipped one (data/regions.json) or an operator's own (REGIONS_FILE),
 * which replaces it. A JSON file:
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

/** Kept under its own name for the REGIONS_FILE callers; every catalogue check throws it. */
export { CatalogueFileError as RegionsFileError }

const REGION_KEYS = new Set(['id', 'label', 'country', 'capabilities', 'resolvers', 'site_type'])
const AVAILABILITY_KEYS = new Set(['region', 'plan', 'available'])
const NOT_IN_FILE = {
  status: 'is not part of the catalogue; set it with: cloudplane region status <id> outage|ok',
}

function parseRegion(value: unknown, where: string): CatalogueRegion {
  const region = object(value, where)
  onlyKeys(region, REGION_KEYS, where, NOT_IN_FILE)
  const id = slugId(region.id, `${where}.id`)
  const country = region.country
  if (typeof country !== 'string' || !/^[a-z]{2}$/.test(country)) {
    fail(`${where}.country must be a two-letter lowercase country code`)
  }
  const capabilities = names(region.capabilities, `${where}.capabilities`, 100)
  if (!isObject(region.resolvers)) fail(`${where}.resolvers must be an object with ipv4 and ipv6`)
  const resolvers = region.resolvers
  onlyKeys(resolvers, new Set(['ipv4', 'ipv6']), `${where}.resolvers`)
  return {
    id,
    label: text(region.label, `${where}.label`, 100),
    country,
    capabilities,
    resolvers: {
      ipv4: text(resolvers.ipv4, `${where}.resolvers.ipv4`, 1000),
      ipv6: text(resolvers.ipv6, `${where}.resolvers.ipv6`, 1000),
    },
    status: 'ok',
    site_type: region.site_type === undefined ? 'core' : text(region.site_type, `${where}.site_type`, 32),
  }
}

function parseAvailability(value: unknown, where: string, regionIds: Set<string>): CatalogueAvailability {
  const entry = object(value, where)
  onlyKeys(entry, AVAILABILITY_KEYS, where)
  const region = text(entry.region, `${where}.region`, 64)
  if (!regionIds.has(region)) fail(`${where}.region "${region}" is not a region of the file`)
  const available = flag(entry.available, `${where}.available`)
  return { region, plan: text(entry.plan, `${where}.plan`, 64), available }
}

/** Validates a parsed catalogue; the error names the first offending field. */
export function parseRegionCatalogue(document: unknown): RegionCatalogue {
  if (!isObject(document)) fail('must hold a JSON object with a "regions" array')
  onlyKeys(document, new Set(['regions', 'availability']), '(file)')
  const list = document.regions
  if (!Array.isArray(list) || list.length === 0) fail('regions must be a non-empty array')
  const regions = list.map((r, i) => parseRegion(r, `regions[${i}]`))
  const twice = firstRepeat(regions, (r) => r.id)
  if (twice !== undefined) fail(`regions[${twice}].id "${regions[twice]?.id}" appears twice`)
  const ids = new Set(regions.map((r) => r.id))
  if (document.availability === undefined) return { regions, availability: defaultAvailability(regions) }
  if (!Array.isArray(document.availability)) fail('availability must be an array')
  const availability = document.availability.map((a, i) => parseAvailability(a, `availability[${i}]`, ids))
  const repeat = firstRepeat(availability, (a) => `${a.region}\u0000${a.plan}`)
  if (repeat !== undefined) {
    const a = availability[repeat]
    fail(`availability[${repeat}] repeats region "${a?.region}" plan "${a?.plan}"`)
  }
  return { regions, availability }
}

export const loadRegionsFile = (path: string): RegionCatalogue => parseRegionCatalogue(readJsonFile(path))

/**
 * The shipped catalogue (data/regions.json): the real region list as recorded on 2024-03-22, in
 * the order the API returned it (docs/service-facts.md#region-catalogue). IPv6 resolvers were
 * sanitised in the recording, so these are stand-ins of the same shape (ten addresses, comma and
 * space).
 */
export const SHIPPED_REGIONS: RegionCatalogue = shippedCatalogue('regions.json', () =>
  parseRegionCatalogue(data),
)
