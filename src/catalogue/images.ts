import { shippedCatalogue } from './catalogue-json.ts'
import data from './data/images.json' with { type: 'json' }
import { parseImageCatalogue } from './images-file.ts'

/**
 * The public image catalogue (docs/service-facts.md#image-catalogue): the images of the real
 * service in 2024, with the recorded labels, vendors, sizes (MB), capabilities and deprecation, in
 * list order (current images by vendor and version, then deprecated ones). The recorded `eol` and
 * `created` values were sanitised, so these are the distributions' published release and
 * end-of-life dates.
 */
export interface CatalogueImage {
  /** The slug after `compute/`. */
  slug: string
  label: string
  vendor: string
  size: number
  capabilities: string[]
  deprecated: boolean
  eol: string | null
  created: string
  /** The one old image recorded with a null description. */
  description: string | null
}

/** The shipped list (data/images.json), validated once at start. */
export const PUBLIC_IMAGES: CatalogueImage[] = shippedCatalogue('images.json', () =>
  parseImageCatalogue(data),
)

/** `created_by` of every public image: the service itself. */
export const PUBLIC_IMAGE_CREATOR = 'compute'
