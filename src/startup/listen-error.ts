import { StartupError } from './startup-error.ts'

/** Why the server could not bind, with the flag that fixes it. */
export function explainListenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`
  if (code === 'EADDRINUSE') {
    return new StartupError(
      `cannot listen on ${where}: the port is in use (another cloudplane?); choose another with --port <n>, or --port 0 for any free port`,
    )
  }
  if (code === 'EACCES') {
    return new StartupError(
      `cannot listen on ${where}: permission denied (ports below 1024 need privileges); use --port`,
    )
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(`cannot listen on ${where}: no such address on this machine; check --host`)
  }
  return error
}
