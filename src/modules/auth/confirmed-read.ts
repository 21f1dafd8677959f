import type { Actor } from './actor.ts'

/**
 * A read that confirms its actor in its own statement. Where the change counters cost a round
 * trip (PostgreSQL), a route declared `confirmedInStatement` is let in on the token cache's
 * remembered lookup without the request's counter read (the actor is `unconfirmed`, carrying the
 * credentials counter's value that lookup was made under), and its statement reads that counter
 * beside the data. The statement started after the request did, so an equal value means no token,
 * user, app or account changed between the lookup and the data: the actor held as of the read, as
 * the counter read before the handler would have shown. Otherwise (the counter moved, or the read
 * failed) the request authenticates for real (401 if the token no longer holds) and reads again
 * with the confirmed actor. A revocation therefore holds from its commit on, on every process, with
 * one round trip per request instead of two.
 *
 * `read` gets the actor and reports the counter's value its statement saw (undefined: it did not
 * read it, and the answer is confirmed the usual way).
 */
export async function confirmedRead<C extends { readonly actor: Actor }, T>(
  ctx: C,
  read: (ctx: C) => Promise<{ value: T; stamp: number | undefined }>,
): Promise<T> {
  const unconfirmed = ctx.actor.unconfirmed
  if (unconfirmed === undefined) return (await read(ctx)).value
  try {
    const { value, stamp } = await read(ctx)
    if (stamp !== undefined && stamp === unconfirmed.stamp) return value
  } catch {
    // A refusal (404, 403) given to an actor that may no longer hold is not the answer either.
  }
  const actor = await unconfirmed.confirm()
  return (await read({ ...ctx, actor })).value
}
