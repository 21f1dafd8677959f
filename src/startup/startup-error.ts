/**
 * A start-up failure explained in one line: what failed, on which path or address, why, and what
 * to do. The CLI prints its message as is and exits with 1.
 */
export class StartupError extends Error {
  override name = 'StartupError'
}
