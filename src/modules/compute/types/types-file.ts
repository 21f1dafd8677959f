import {
  amount,
  count,
  fail,
  firstRepeat,
  isObject,
  object,
  onlyKeys,
  slugId,
  text,
} from '../../../catalogue/catalogue-json.ts'
import type { CatalogueType, RegionPrice, TypePrice } from './types.catalogue.ts'

/**
 * The instance type catalogue file (data/types.json):
 *
 *   { "region_price_factors": [ { "region": "id-cgk", "factor": 1.2 } ],
 *     "types": [ { "id": "g6-nanode-1", "label": "Nanode 1GB", "class": "nanode",
 *                  "memory": 1024, "disk": 25600, "transfer": 1000, "vcpus": 1, "gpus": 0,
 *                  "network_out": 1000, "price": { "hourly": 0.0075, "monthly": 5 },
 *                  "addons": { "backups": { "price": { "hourly": 0.003, "monthly": 2 } } } } ] }
 *
 * Memory and disk are in MB, transfer in GB, network_out in Mbps, prices in USD. The regions that
 * price differently do so by one factor for every plan and add-on, so the file gives the factors
 * and each type's `region_prices` are derived (hourly to 4 decimals, monthly to 2). `successor`
 * may be left out (null).
 */
const TYPE_KEYS = new Set([
  'id',
  'label',
  'class',
  'memory',
  'disk',
  'transfer',
  'vcpus',
  'gpus',
  'network_out',
  'price',
  'addons',
  'successor',
])
const CLASSES: ReadonlySet<string> = new Set<CatalogueType['class']>([
  'nanode',
  'standard',
  'highmem',
  'dedicated',
  'gpu',
])

interface RegionFactor {
  region: string
  factor: number
}

const round = (value: number, digits: number) => Number(value.toFixed(digits))

function regionPrices(price: TypePrice, factors: readonly RegionFactor[]): RegionPrice[] {
  return factors.map(({ region, factor }) => ({
    id: region,
    hourly: round(price.hourly * factor, 4),
    monthly: round(price.monthly * factor, 2),
  }))
}

function parsePrice(value: unknown, where: string): TypePrice {
  const price = object(value, where)
  onlyKeys(price, new Set(['hourly', 'monthly']), where)
  return {
    hourly: amount(price.hourly, `${where}.hourly`),
    monthly: amount(price.monthly, `${where}.monthly`),
  }
}

function parseFactor(value: unknown, where: string): RegionFactor {
  const entry = object(value, where)
  onlyKeys(entry, new Set(['region', 'factor']), where)
  const region = slugId(entry.region, `${where}.region`)
  const factor = entry.factor
  if (typeof factor !== 'number' || !Number.isFinite(factor) || factor <= 0) {
    fail(`${where}.factor must be a number above 0`)
  }
  return { region, factor }
}

function parseType(value: unknown, where: string, factors: readonly RegionFactor[]): CatalogueType {
  const type = object(value, where)
  onlyKeys(type, TYPE_KEYS, where)
  const id = slugId(type.id, `${where}.id`)
  const label = text(type.label, `${where}.label`, 64)
  const cls = type.class
  if (typeof cls !== 'string' || !CLASSES.has(cls))
    fail(`${where}.class must be one of ${[...CLASSES].join(', ')}`)
  const price = parsePrice(type.price, `${where}.price`)
  const addons = object(type.addons, `${where}.addons`)
  onlyKeys(addons, new Set(['backups']), `${where}.addons`)
  const backups = object(addons.backups, `${where}.addons.backups`)
  onlyKeys(backups, new Set(['price']), `${where}.addons.backups`)
  const backupPrice = parsePrice(backups.price, `${where}.addons.backups.price`)
  const successor =
    type.successor === undefined || type.successor === null
      ? null
      : slugId(type.successor, `${where}.successor`)
  return {
    id,
    label,
    class: cls as CatalogueType['class'],
    memory: count(type.memory, `${where}.memory`),
    disk: count(type.disk, `${where}.disk`),
    transfer: count(type.transfer, `${where}.transfer`),
    vcpus: count(type.vcpus, `${where}.vcpus`),
    gpus: count(type.gpus, `${where}.gpus`),
    network_out: count(type.network_out, `${where}.network_out`),
    price,
    region_prices: regionPrices(price, factors),
    addons: { backups: { price: backupPrice, region_prices: regionPrices(backupPrice, factors) } },
    successor,
  }
}

/** Validates a parsed type catalogue; the error names the first offending field. */
export function parseTypeCatalogue(document: unknown): CatalogueType[] {
  if (!isObject(document)) fail('must hold a JSON object with a "types" array')
  onlyKeys(document, new Set(['region_price_factors', 'types']), '(file)')
  const factorList = document.region_price_factors ?? []
  if (!Array.isArray(factorList)) fail('region_price_factors must be an array')
  const factors = factorList.map((f, i) => parseFactor(f, `region_price_factors[${i}]`))
  const repeat = firstRepeat(factors, (f) => f.region)
  if (repeat !== undefined) {
    fail(`region_price_factors[${repeat}].region "${factors[repeat]?.region}" appears twice`)
  }
  const list = document.types
  if (!Array.isArray(list)) fail('types must be an array')
  const types = list.map((t, i) => parseType(t, `types[${i}]`, factors))
  const twice = firstRepeat(types, (t) => t.id)
  if (twice !== undefined) fail(`types[${twice}].id "${types[twice]?.id}" appears twice`)
  return types
}
