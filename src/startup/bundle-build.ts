import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Plugin } from 'esbuild'

/**
 * Builds the start bundle (see src/start.js): src/cli.ts and what it imports, dependencies
 * included, in one ES module, with a manifest of the inputs' modification times.
 */

/**
 * Packages that read files beside their own (static assets, worker scripts) or are optional; they
 * load from node_modules as usual.
 */
const EXTERNAL = /^(@fastify\/swagger|@fastify\/swagger-ui|pino|pino-pretty|ioredis|pg-native)(\/.*)?$/

/** Files outside the sources that change what the bundle holds: the dependencies installed, this build. */
const EXTRA_INPUTS = ['package.json', 'node_modules/.package-lock.json', 'src/startup/bundle-build.ts']

/**
 * A module that finds files beside itself (a worker, a child process's script, package.json)
 * keeps its own location: in the bundle `import.meta.url` would be the bundle's.
 */
function keepModuleUrls(src: string): Plugin {
  return {
    name: 'keep-module-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(src)) return undefined
        const text = readFileSync(args.path, 'utf8')
        if (!text.includes('import.meta.url')) return undefined
        const url = JSON.stringify(pathToFileURL(args.path).href)
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' }
      })
    },
  }
}

/**
 * The external packages are loaded by their files' full paths, so the bundle runs wherever it is
 * written. One that is not installed (an optional one) stays a name, and fails as it would have.
 */
const externalsByPath: Plugin = {
  name: 'externals-by-path',
  setup(build) {
    build.onResolve({ filter: EXTERNAL }, (args) => {
      try {
        return { path: fileURLToPath(import.meta.resolve(args.path)), external: true }
      } catch {
        return { path: args.path, external: true }
      }
    })
  },
}

/**
 * Node's own modules, imported as ES modules, come from `process.getBuiltinModule` with only their
 * plain values as exports. An ES import of a built-in module reads every export, and some are
 * getters that load much more when read: node:http's WebSocket loads the fetch implementation,
 * node:crypto's webcrypto the Web Crypto API, tens of milliseconds of each start that nothing
 * uses. An import of such a getter by name fails the build (and the start runs the sources). A
 * `require` of a built-in is left as it is: it reads nothing.
 */
const builtinsWithoutGetters: Plugin = {
  name: 'builtins-without-getters',
  setup(build) {
    build.onResolve({ filter: /^[\w:/]+$/ }, (args) =>
      args.kind === 'import-statement' && isBuiltin(args.path)
        ? { path: args.path, namespace: 'builtin' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const module = process.getBuiltinModule(args.path) as Record<string, unknown>
      const plain = Object.getOwnPropertyNames(module).filter(
        (name) =>
          /^[A-Za-z_$][\w$]*$/.test(name) && Object.getOwnPropertyDescriptor(module, name)?.get === undefined,
      )
      const contents = [
        `const module = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        'export default module;',
        `export const { ${plain.join(', ')} } = module;`,
      ].join('\n')
      return { contents, loader: 'js' }
    })
  },
}

export interface BundleTarget {
  /** The repository's root. */
  root: URL
  /** Where the bundle (cli.mjs) and its manifest (cli.json) go. */
  dir: URL
  /** The manifest's format, which the reader checks. */
  format: number
}

export async function buildBundle({ root, dir, format }: BundleTarget): Promise<void> {
  const { build } = await import('esbuild')
  const rootPath = fileURLToPath(root)
  const started = Date.now()
  mkdirSync(dir, { recursive: true })
  // Several processes may build at once: each writes its own files and renames them into place.
  const bundle = fileURLToPath(new URL(`cli.${process.pid}.mjs`, dir))
  const result = await build({
    absWorkingDir: rootPath,
    entryPoints: ['src/cli.ts'],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // Bundled CommonJS calls require for Node's modules and the external packages.
    banner: {
      js: `import { createRequire as bundleRequire } from 'node:module'; const require = bundleRequire(${JSON.stringify(new URL('package.json', root).href)});`,
    },
    keepNames: true,
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
    plugins: [builtinsWithoutGetters, externalsByPath, keepModuleUrls(fileURLToPath(new URL('src/', root)))],
  })
  const inputs: Record<string, number> = {}
  let changedMeanwhile = false
  for (const path of [...Object.keys(result.metafile.inputs), ...EXTRA_INPUTS]) {
    // Dependencies count by npm's record; Node's own modules (`builtin:node:…`) are not files.
    if ((path.startsWith('node_modules/') && !EXTRA_INPUTS.includes(path)) || path.includes(':')) continue
    const mtimeMs = statSync(new URL(path, root), { throwIfNoEntry: false })?.mtimeMs
    if (mtimeMs === undefined) continue
    inputs[path] = mtimeMs
    if (mtimeMs >= started) changedMeanwhile = true
  }
  renameSync(bundle, new URL('cli.mjs', dir))
  // An input written while the build read it may not be in the bundle: no manifest, so the next
  // start builds again.
  if (changedMeanwhile) {
    rmSync(new URL('cli.json', dir), { force: true })
    return
  }
  const manifest = fileURLToPath(new URL(`cli.${process.pid}.json`, dir))
  writeFileSync(manifest, JSON.stringify({ format, inputs }))
  renameSync(manifest, new URL('cli.json', dir))
}
