import { accessSync, constants, mkdirSync } from 'node:fs'
import { StartupError } from './startup-error.ts'

/** The cause of a file-system error in words (the code alone means little to most people). */
export function fsErrorCause(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  switch (e?.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'EROFS':
      return 'read-only file system'
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file is in the way where a folder should be'
    case 'ENOENT':
      return 'a parent folder does not exist'
    case 'ENOSPC':
      return 'no space left on the device'
    default:
      return e instanceof Error ? e.message : String(error)
  }
}

/**
 * Creates a folder the server writes into (with its parents) and checks it is writable, so that a
 * read-only or misplaced data directory stops start-up with its path and cause instead of an
 * engine error later. `what` names it for the message ("data directory"), `setting` the knob to turn.
 */
export function prepareWritableFolder(path: string, what: string, setting: string): void {
  try {
    // Only the server's own user may read what it keeps (tokens' hashes, sealed secrets, images).
    mkdirSync(path, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new StartupError(
      `cannot create the ${what} ${path}: ${fsErrorCause(error)}; set ${setting} to another folder`,
    )
  }
  try {
    accessSync(path, constants.W_OK)
  } catch (error) {
    throw new StartupError(
      `the ${what} ${path} is not writable: ${fsErrorCause(error)}; set ${setting} to a writable folder`,
    )
  }
}
