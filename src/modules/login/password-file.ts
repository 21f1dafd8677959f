import { readFileSync } from 'node:fs'
import { passwordProblem } from './passwords.ts'

/**
 * Reads a password from a file, as the CLI takes it (never from an argument, which `ps` and shell
 * history would show). The first line is the password; its line ending is not part of it.
 * Returns the password or a reason it cannot be used; the password itself never appears in one.
 */
export function readPasswordFile(path: string): { password: string } | { problem: string } {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return { problem: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}` }
  }
  const password = text.split(/\r?\n/, 1)[0] ?? ''
  const problem = passwordProblem(password)
  return problem === undefined ? { password } : { problem: `the password in ${path} is unusable: ${problem}` }
}
