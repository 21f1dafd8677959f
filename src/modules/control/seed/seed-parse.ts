import type { Validator } from 'typebox/compile'
import { ApiError, type ErrorItem } from '../../../common/errors.ts'
import { lazyModule } from '../../../startup/lazy-module.ts'
import type { Vocabulary } from '../../../vocabulary/vocabulary.ts'
import { fromWire, type Plan, planOf } from '../../../vocabulary/wire-plan.ts'
import { type SeedFile, SeedFileSchema } from './seed.schema.ts'

// YAML and the compiled schema are for seeding only: built by the first seed, not at start-up.
const loadYaml = lazyModule<typeof import('yaml')>('yaml')
let compiled: Validator | undefined
const validator = (): Validator =>
  (compiled ??= lazyModule<typeof import('typebox/compile')>('typebox/compile')().Compile(SeedFileSchema))

/** `/accounts/0/vpcs/2/subnets/0/ipv4` → `accounts[0].vpcs[2].subnets[0].ipv4`. */
export function seedPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce(
      (path, part) => (/^[0-9]+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part),
      '',
    )
}

let plan: Plan | undefined
/** What the naming translates in a seed file (its image ids, scopes and grant keys). */
const wirePlan = (): Plan => (plan ??= planOf(SeedFileSchema) as Plan)

/**
 * A seed file's text (JSON, or YAML, of which JSON is a subset) checked against the schema. Every
 * problem is reported at once, each naming its place in the file. It is written in the wire's
 * words, as a client would send its bodies (`linode/debian12`, `linodes:read_only`, grant key
 * `linode` under the real naming), and checked in the domain's.
 */
export function parseSeed(text: string, vocabulary: Vocabulary): SeedFile {
  let value: unknown
  try {
    value = loadYaml().parse(text)
  } catch (error) {
    throw new ApiError('bad_request', [
      { reason: `not JSON or YAML: ${(error as Error).message.split('\n')[0]}` },
    ])
  }
  if (value === null || value === undefined) value = {}
  if (!vocabulary.identity) value = fromWire(vocabulary, wirePlan(), value)
  if (validator().Check(value)) return value as SeedFile
  const errors: ErrorItem[] = []
  const seen = new Set<string>()
  for (const error of validator().Errors(value)) {
    const e = error as {
      keyword: string
      instancePath: string
      message: string
      params?: { additionalProperties?: string[] }
    }
    // An extra field is also reported as its parent's `additionalProperties` error, with its name.
    if (e.keyword === 'boolean') continue
    const extra = e.params?.additionalProperties
    const field = seedPath(extra?.length ? `${e.instancePath}/${extra[0]}` : e.instancePath) || '(file)'
    const reason = extra?.length ? 'is not a field of the seed file' : e.message
    const key = `${field}: ${reason}`
    if (seen.has(key)) continue
    seen.add(key)
    errors.push({ field, reason })
  }
  throw new ApiError('bad_request', errors)
}
