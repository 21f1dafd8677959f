import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, it } from 'node:test'

/**
 * The layout rules of src/modules (docs/layout.md): a domain reaches another only through its
 * services (or its schema and table types), domains depend on each other in one direction, and
 * services hold rules, not SQL.
 */
const MODULES = resolve(import.meta.dirname, '../../src/modules')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : []
  })
}

const domainOf = (file: string): string | undefined => {
  const rel = relative(MODULES, file)
  return rel.startsWith('..') ? undefined : rel.split(sep)[0]
}

interface Import {
  from: string
  to: string
  typeOnly: boolean
}

/** Static imports and re-exports of one file, resolved to absolute paths. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8')
  const found: Import[] = []
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'(\.[^']+)'/gm)) {
    found.push({ from: file, to: resolve(dirname(file), m[3] as string), typeOnly: m[2] !== undefined })
  }
  return found
}

const files = sources(MODULES)
const imports = files.flatMap(importsOf)
const crossDomain = imports.filter((i) => {
  const a = domainOf(i.from)
  const b = domainOf(i.to)
  return a !== undefined && b !== undefined && a !== b
})

describe('module layout', () => {
  it("no domain imports another domain's repository or routes", () => {
    const offending = crossDomain
      .filter((i) => /\.(repository|routes)\.ts$/.test(i.to))
      .map((i) => `${relative(MODULES, i.from)} -> ${relative(MODULES, i.to)}`)
    assert.deepEqual(offending, [])
  })

  it('domains depend on each other without cycles (type-only imports aside)', () => {
    const edges = new Map<string, Set<string>>()
    for (const i of crossDomain) {
      if (i.typeOnly) continue
      const a = domainOf(i.from) as string
      const b = domainOf(i.to) as string
      const set = edges.get(a) ?? new Set<string>()
      set.add(b)
      edges.set(a, set)
    }
    const cycles: string[] = []
    const visit = (node: string, path: string[]) => {
      for (const next of edges.get(node) ?? []) {
        if (path.includes(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(' -> '))
        else visit(next, [...path, next])
      }
    }
    for (const start of edges.keys()) visit(start, [start])
    assert.deepEqual([...new Set(cycles)], [])
  })

  it('services hold no SQL', () => {
    const offending = files
      .filter((f) => f.endsWith('.service.ts'))
      .filter((f) => {
        const text = readFileSync(f, 'utf8')
        return (
          /from 'kysely'/.test(text) ||
          /\bsql(<[^>]*>)?`/.test(text) ||
          /compileFilter\(/.test(text) ||
          /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/.test(text)
        )
      })
      .map((f) => relative(MODULES, f))
    assert.deepEqual(offending, [])
  })
})
