import type { Migration } from 'kysely/migration'
import * as platform from './2026_11_21_0001_platform.ts'
import * as computeVpcs from './2026_11_21_0002_compute_vpcs.ts'
import * as images from './2026_11_21_0003_images.ts'
import * as profile from './2026_11_21_0004_profile.ts'

/**
 * Every migration, in order. A static list rather than a folder scan, so the set is explicit and
 * works the same from `src/` and from the compiled `dist/`. Released migrations are never edited.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_platform': platform,
  '2026_11_21_0002_compute_vpcs': computeVpcs,
  '2026_11_21_0003_images': images,
  '2026_11_21_0004_profile': profile,
}
