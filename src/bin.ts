#!/usr/bin/env node
/**
 * The published `cloudplane` command. It checks the Node version before loading anything else,
 * so it must itself run on any Node: no imports, no recent syntax. An older Node would otherwise
 * stop at the first `node:sqlite` import with an error that does not say what to do.
 */
const REQUIRED_MAJOR = 24

/** The argument as a shell would need it typed, so the suggested command can be pasted. */
function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`
}

const major = Number(process.versions.node.split('.')[0])
if (major < REQUIRED_MAJOR) {
  const again = ['npx', '-p', `node@${REQUIRED_MAJOR}`, 'cloudplane'].concat(
    process.argv.slice(2).map(shellWord),
  )
  process.stderr.write(
    `cloudplane needs Node.js ${REQUIRED_MAJOR} or later (this is ${process.versions.node}): ` +
      `install it from https://nodejs.org, or run it with ${again.join(' ')}\n`,
  )
  process.exit(1)
}

import('./cli.ts').catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
