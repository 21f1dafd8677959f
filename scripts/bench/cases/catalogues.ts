import type { CaseResult, RunningServer } from '../harness.ts'
import { measure } from '../harness.ts'

/**
 * The static catalogues, without a token: they change only when an operator changes them, so each
 * should be served from text rendered once (goal: 60% of a bare server sending the same bytes).
 */
export const CATALOGUE_PATHS = [
  '/v4/regions',
  '/v4/regions/availability',
  '/v4/compute/types',
  '/v4/images',
] as const

export async function catalogueCases(server: RunningServer, engine: string): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  for (const path of CATALOGUE_PATHS) {
    const label = path === '/v4/images' ? `GET ${path} (public images, no token)` : `GET ${path} (no token)`
    results.push(
      await measure(`${label} (${engine})`, server.baseUrl, { method: 'GET', path }, { goal: 0.6 }),
    )
  }
  return results
}
