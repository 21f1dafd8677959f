import {
  count,
  fail,
  firstRepeat,
  flag,
  isObject,
  names,
  object,
  onlyKeys,
  text,
  timestamp,
} from './catalogue-json.ts'
import type { CatalogueImage } from './images.ts'

/**
 * The public image catalogue file (data/images.json):
 *
 *   { "images": [ { "slug": "debian12", "label": "Debian 12", "vendor": "Debian", "size": 1300,
 *                   "capabilities": ["cloud-init"], "deprecated": false,
 *                   "eol": "2028-06-10T04:00:00", "created": "2023-06-10T00:00:00",
 *                   "description": "" } ] }
 *
 * `slug` is the part after `compute/`; `size` is in MB; `eol` may be null and `description` null
 * or empty, as the service recorded them. The list order is the order the API lists them in.
 */
const IMAGE_KEYS = new Set([
  'slug',
  'label',
  'vendor',
  'size',
  'capabilities',
  'deprecated',
  'eol',
  'created',
  'description',
])

function parseImage(value: unknown, where: string): CatalogueImage {
  const image = object(value, where)
  onlyKeys(image, IMAGE_KEYS, where)
  const slug = text(image.slug, `${where}.slug`, 64)
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(slug)) {
    fail(`${where}.slug must be lowercase letters, digits, dots and dashes (the part after compute/)`)
  }
  const description = image.description
  if (description !== null && (typeof description !== 'string' || description.length > 65000)) {
    fail(`${where}.description must be null or a string of at most 65000 characters`)
  }
  return {
    slug,
    label: text(image.label, `${where}.label`, 128),
    vendor: text(image.vendor, `${where}.vendor`, 64),
    size: count(image.size, `${where}.size`),
    capabilities: names(image.capabilities, `${where}.capabilities`, 100),
    deprecated: flag(image.deprecated, `${where}.deprecated`),
    eol: image.eol === null ? null : timestamp(image.eol, `${where}.eol`),
    created: timestamp(image.created, `${where}.created`),
    description,
  }
}

/** Validates a parsed image catalogue; the error names the first offending field. */
export function parseImageCatalogue(document: unknown): CatalogueImage[] {
  if (!isObject(document)) fail('must hold a JSON object with an "images" array')
  onlyKeys(document, new Set(['images']), '(file)')
  const list = document.images
  if (!Array.isArray(list)) fail('images must be an array')
  const images = list.map((image, i) => parseImage(image, `images[${i}]`))
  const twice = firstRepeat(images, (image) => image.slug)
  if (twice !== undefined) fail(`images[${twice}].slug "${images[twice]?.slug}" appears twice`)
  return images
}
