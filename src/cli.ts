#!/usr/bin/env node
import { enableCompileCache } from 'node:module'

// Compiled code (TypeScript stripped, then V8's bytecode) is kept on disk between runs: without it
// most of a start is spent compiling the same modules again. Turned on before the rest is loaded.
enableCompileCache()
const { reportFailure, runCli } = await import('./cli/main.ts')

runCli(process.argv.slice(2)).catch((error: unknown) => {
  process.exitCode = reportFailure(error)
  // A failed start may leave handles (a pool, a timer) behind; nothing more is coming.
  process.exit()
})
