import { createHash } from 'node:crypto'

/** What a rule does to a request it matches (or to a job of the named kind). */
export type FaultEffect =
  | { kind: 'status'; status: number; reason?: string; field?: string; retryAfter?: number }
  | { kind: 'latency'; minMs: number; maxMs: number }
  | { kind: 'drop' }
  | { kind: 'job'; job: string }

export interface FaultRule {
  id: number
  created: string
  method: string | null
  /** A glob over the request path: `*` stands for any run of characters. */
  path: string | null
  accountId: number | null
  tokenId: number | null
  probability: number
  times: number | null
  fired: number
  seed: string | null
  preset: string | null
  effect: FaultEffect
}

const patternCache = new Map<string, RegExp>()

function globToRegExp(glob: string): RegExp {
  let pattern = patternCache.get(glob)
  if (pattern === undefined) {
    const body = glob
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')
    pattern = new RegExp(`^${body}$`, 'i')
    patternCache.set(glob, pattern)
  }
  return pattern
}

export interface FaultSubject {
  method: string
  path: string
  accountId: number | null
  tokenId: number | null
}

/** Whether the rule's matchers (not its probability or count) select the request. */
export function ruleMatches(rule: FaultRule, subject: FaultSubject): boolean {
  if (rule.effect.kind === 'job') return false
  if (rule.method !== null && rule.method.toUpperCase() !== subject.method) return false
  if (rule.accountId !== null && rule.accountId !== subject.accountId) return false
  if (rule.tokenId !== null && rule.tokenId !== subject.tokenId) return false
  return rule.path === null || globToRegExp(rule.path).test(subject.path)
}

/**
 * The random draws of the rules. With a seed, the n-th draw of a rule is a hash of the seed and n,
 * so a test that sends the same requests in the same order sees the same faults, even with the
 * rule cleared and added again.
 */
export class FaultDice {
  readonly #draws = new Map<number, number>()

  /** A number in [0, 1): the rule's next draw. */
  draw(rule: FaultRule): number {
    if (rule.seed === null) return Math.random()
    const n = this.#draws.get(rule.id) ?? 0
    this.#draws.set(rule.id, n + 1)
    const digest = createHash('sha256').update(`${rule.seed}:${n}`).digest()
    return digest.readUInt32BE(0) / 2 ** 32
  }

  /** Forgets the draws made so far (the rules changed). */
  reset(): void {
    this.#draws.clear()
  }
}
