import { normalisePath } from '../../common/secret-paths.ts'

/**
 * Paths that fault rules and the journal leave alone: the controls themselves (a test must be able
 * to clear its faults, and the controls hand out two-factor codes) and the health checks. Read as
 * the router reads them: it serves `/%5Fcloudplane/…` as the controls.
 */
export function isEmulatorExempt(path: string, controlPrefix: string): boolean {
  const routed = path.includes('%') ? normalisePath(path) : path
  return (
    routed === controlPrefix ||
    routed.startsWith(`${controlPrefix}/`) ||
    routed === '/healthz' ||
    routed === '/readyz'
  )
}
