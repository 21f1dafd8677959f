import type { Db } from '../db/connect.ts'
import { syncPublicScripts } from '../modules/compute/scripts/scripts.seed.ts'
import { syncComputeTypes } from '../modules/compute/types/types.seed.ts'
import { syncPublicImages } from './images.seed.ts'
import { syncRegions } from './regions.seed.ts'
import type { RegionCatalogue } from './regions-file.ts'
import { syncSecurityQuestions } from './security-questions.seed.ts'

/** Catalogues an operator supplied in place of the shipped ones. */
export interface CatalogueOptions {
  /** REGIONS_FILE */
  regions?: RegionCatalogue | undefined
}

/**
 * Loads the shipped catalogues. Each seeder is idempotent and runs on every start, inside the
 * start-up transaction, so a new release's catalogue replaces the old one.
 */
export const CATALOGUE_SEEDERS: Array<(db: Db, options: CatalogueOptions) => Promise<void>> = [
  (db, options) => syncRegions(db, options.regions?.regions, options.regions?.availability),
  (db) => syncPublicImages(db),
  (db) => syncSecurityQuestions(db),
  (db) => syncComputeTypes(db),
  (db) => syncPublicScripts(db),
]

export async function seedCatalogue(db: Db, options: CatalogueOptions = {}): Promise<void> {
  for (const seed of CATALOGUE_SEEDERS) await seed(db, options)
}
