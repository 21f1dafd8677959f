#!/usr/bin/env node
// @ts-check
import { readFileSync, statSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/**
 * What `npm start` runs: the CLI from one bundled file of the sources and their dependencies,
 * rebuilt when an input changed. Loading some three hundred modules one by one (resolving each,
 * reading its package.json, stripping its types) was most of a start; one file is read and
 * compiled (from the compile cache) at once. If the bundle cannot be built, the sources run as
 * before. See docs/decisions.md#one-file-start.
 *
 * Plain JavaScript (checked by tsc through its JSDoc types), and only Node's own modules imported:
 * a TypeScript file would load the type stripper, and any other module would load, on every start.
 */
enableCompileCache()

const ROOT = new URL('../', import.meta.url)
const dirText = process.env.CLOUDPLANE_BUNDLE_DIR
const BUNDLE_DIR = dirText
  ? new URL(`${pathToFileURL(resolve(dirText)).href}/`)
  : new URL('node_modules/.cache/cloudplane/', ROOT)

/** The manifest's shape and the build's settings; a change of either rebuilds. */
const FORMAT = 1

/**
 * Inputs (paths from the repository's root) and the modification times they were built from.
 * @typedef {{ format: number, inputs: Record<string, number> }} Manifest
 */

function isFresh() {
  /** @type {Manifest} */
  let manifest
  try {
    manifest = JSON.parse(readFileSync(new URL('cli.json', BUNDLE_DIR), 'utf8'))
  } catch {
    return false
  }
  if (manifest.format !== FORMAT) return false
  for (const [path, mtimeMs] of Object.entries(manifest.inputs)) {
    if (statSync(new URL(path, ROOT), { throwIfNoEntry: false })?.mtimeMs !== mtimeMs) return false
  }
  return true
}

/** @returns {Promise<URL | undefined>} */
async function bundleUrl() {
  const bundle = new URL('cli.mjs', BUNDLE_DIR)
  if (isFresh()) return bundle
  try {
    const { buildBundle } = await import('./startup/bundle-build.ts')
    await buildBundle({ root: ROOT, dir: BUNDLE_DIR, format: FORMAT })
    return bundle
  } catch (error) {
    process.stderr.write(
      `cloudplane: could not build the start bundle (${error instanceof Error ? error.message : error}); starting from the sources\n`,
    )
    return undefined
  }
}

const url = await bundleUrl()
await import(url?.href ?? './cli.ts')
