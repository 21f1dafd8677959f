/**
 * Marks in the route schemas saying which values and keys are vocabulary words. The domain and its
 * schemas speak the document's words; the vocabulary plugin reads these marks when a route is
 * registered and derives the wire schema and the translations from them (vocabulary/wire-plan.ts).
 */

/** Values that are, or contain, a vocabulary word. */
export type TermKind =
  /** `compute/<slug>` image ids and config kernels. */
  | 'imageId'
  /** A public image's `created_by`. */
  | 'creator'
  /** Region capability strings (`Computes`). */
  | 'capability'
  /** Event `action`. */
  | 'eventAction'
  /** Event entity `type`. */
  | 'entityType'
  /** Event entity `url` (`/v4/compute/instances/1`). */
  | 'apiUrl'
  /** OAuth scope text (`computes:read_only events:read_write`). */
  | 'scopes'
  /** Instance type labels (`Compute 2GB`). */
  | 'typeLabel'

/** Objects whose property names are vocabulary words. */
export type KeysKind = 'grants' | 'globalGrants' | 'profile' | 'user' | 'vpcIp' | 'region'

export const TERM = 'x-term'
export const TERM_KEYS = 'x-term-keys'
export const LATER_KEYS = 'x-later-keys'

/** Spread into a value schema's options: `Type.String({ ...term('imageId') })`. */
export const term = (kind: TermKind) => ({ [TERM]: kind }) as Record<typeof TERM, TermKind>

/** Spread into an object schema's options: `Type.Object({…}, termKeys('grants'))`. */
export const termKeys = (kind: KeysKind) => ({ [TERM_KEYS]: kind }) as Record<typeof TERM_KEYS, KeysKind>

/**
 * Spread into an object schema's options: these properties are fields the service added after
 * the document's version, sent only by a vocabulary with `laterFields` (docs/decisions.md, "Fields
 * of later versions"). Unlike a key map's extras they are the data's own, so an answer rendered
 * by the database carries them as it is, without being translated on its way out.
 */
export const laterKeys = (...keys: string[]) =>
  ({ [LATER_KEYS]: keys }) as Record<typeof LATER_KEYS, string[]>
