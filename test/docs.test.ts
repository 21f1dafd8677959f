import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'

/**
 * Comments point into `docs/` (`docs/decisions.md#paging`) for the reasons behind the code. These
 * checks keep every such pointer alive when a heading is renamed, and keep out citations of
 * documents that are not in the repository.
 */
const ROOT = join(import.meta.dirname, '..')
const SCANNED = ['src', 'scripts', 'test']
const TEXT_FILE = /\.(ts|md|json)$/

function textFiles(): Array<{ path: string; text: string }> {
  const paths = SCANNED.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p)),
  )
  return ['README.md', ...paths]
    .filter((p) => TEXT_FILE.test(p))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }))
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to dashes. */
function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor of a markdown file; repeated headings get `-1`, `-2`, … as on GitHub. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading === null) continue
    const slug = headingSlug(heading[1] as string)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

const DOC_REFERENCE = /docs\/([\w.-]+\.md)#([\w-]+)/g
/** Links between the files of `docs/`: `[text](decisions.md#paging)`. */
const DOCS_LINK = /\]\(([\w.-]+\.md)(?:#([\w-]+))?\)/g

describe('docs references', () => {
  it('computes GitHub heading anchors', () => {
    assert.equal(headingSlug('Two-factor secret lifetime'), 'two-factor-secret-lifetime')
    assert.equal(headingSlug('The `X-Filter` header: syntax'), 'the-x-filter-header-syntax')
    assert.equal(headingSlug('See [paging](decisions.md#paging), too'), 'see-paging-too')
    assert.deepEqual([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n')], ['a', 'a-1'])
  })

  it('every `docs/<file>.md#<anchor>` in src, scripts, test and README.md names a heading', () => {
    const broken: string[] = []
    let references = 0
    for (const { path, text } of textFiles()) {
      for (const [, file, anchor] of text.matchAll(DOC_REFERENCE)) {
        references++
        const doc = join(ROOT, 'docs', file as string)
        if (!existsSync(doc)) broken.push(`${path}: docs/${file} does not exist`)
        else if (!anchorsOf(readFileSync(doc, 'utf8')).has(anchor as string)) {
          broken.push(`${path}: docs/${file} has no heading #${anchor}`)
        }
      }
    }
    assert.ok(references > 0, 'no reference found: the scan is looking in the wrong place')
    assert.deepEqual(broken, [])
  })

  it('links between the files of docs/ resolve', () => {
    const broken: string[] = []
    for (const name of readdirSync(join(ROOT, 'docs')).filter((n) => n.endsWith('.md'))) {
      const text = readFileSync(join(ROOT, 'docs', name), 'utf8')
      for (const [, file, anchor] of text.matchAll(DOCS_LINK)) {
        const doc = join(ROOT, 'docs', file as string)
        if (!existsSync(doc)) broken.push(`docs/${name}: ${file} does not exist`)
        else if (anchor !== undefined && !anchorsOf(readFileSync(doc, 'utf8')).has(anchor)) {
          broken.push(`docs/${name}: ${file} has no heading #${anchor}`)
        }
      }
    }
    assert.deepEqual(broken, [])
  })

  it('nothing cites documents that are not in the repository (numbered facts or decisions)', () => {
    const citation = /api[-]facts|\b[Dd]ecisions?,? \d/
    const offenders = textFiles().flatMap(({ path, text }) =>
      text
        .split('\n')
        .flatMap((line, i) => (citation.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
    )
    assert.deepEqual(offenders, [])
  })
})
