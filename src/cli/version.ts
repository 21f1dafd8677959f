import { readFileSync } from 'node:fs'

/** The package's version: package.json sits two levels up from both src/cli/ and dist/cli/. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
