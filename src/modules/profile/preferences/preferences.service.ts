import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest } from '../../../common/errors.ts'
import type { Actor } from '../../auth/actor.ts'
import * as repo from './preferences.repository.ts'
import type { Preferences } from './preferences.schemas.ts'

/** API document, Limits: the stored object is at most 65,535 characters once serialized. */
export const PREFERENCES_MAX_LENGTH = 65_535

/** Deeper nesting is refused: serializing it would exhaust the stack long before the size limit. */
export const PREFERENCES_MAX_DEPTH = 100

/** The nesting depth of a JSON value, counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number]
    if (node === null || typeof node !== 'object') continue
    if (depth > deepest) deepest = depth
    if (deepest > PREFERENCES_MAX_DEPTH) return deepest
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return deepest
}

/**
 * Characters as the document counts them, and as the schemas' length limits do: code points, so
 * an emoji is one character, not two UTF-16 units (a body never holds a lone surrogate).
 */
function characters(text: string): number {
  let count = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      count--
      i++
    }
  }
  return count
}

/** Preferences belong to the OAuth client behind the token; personal access tokens share one slot. */
const clientKey = (actor: Actor): string => actor.clientId ?? ''

export async function getPreferences(ctx: RequestContext): Promise<Preferences> {
  const stored = await repo.findPreferences(ctx.db, ctx.actor.user.id, clientKey(ctx.actor))
  return stored === undefined ? {} : (JSON.parse(stored) as Preferences)
}

/** Replaces the whole object (nothing is merged). */
export async function replacePreferences(
  ctx: RequestContext,
  preferences: Preferences,
): Promise<Preferences> {
  if (depthOf(preferences) > PREFERENCES_MAX_DEPTH) {
    throw badRequest(`Preferences must not be nested more than ${PREFERENCES_MAX_DEPTH} levels deep`)
  }
  const text = JSON.stringify(preferences)
  if (text.length > PREFERENCES_MAX_LENGTH && characters(text) > PREFERENCES_MAX_LENGTH) {
    throw badRequest(`Preferences must be at most ${PREFERENCES_MAX_LENGTH} characters when serialized`)
  }
  await inContextTransaction(ctx, ({ db, actor }) =>
    repo.savePreferences(db, actor.user.id, clientKey(actor), text),
  )
  return preferences
}
