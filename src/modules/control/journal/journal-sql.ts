/**
 * Statements of the journal that both its thread (node:sqlite or pg, by hand) and the repository
 * (Kysely) run, kept as one text each (`?` for each slot) so that the two cannot drift apart.
 */

type Integer = 'integer' | 'bigint'

/**
 * On PostgreSQL, writers of entries share this advisory lock and whoever removes bodies takes it
 * alone: a writer's `on conflict do nothing` finds a body without locking it, so without this a
 * trim could remove a body that a batch being written names (a trim's statement does not see rows
 * not yet committed). On SQLite each write transaction has the database to itself already.
 */
export const BODIES_LOCK = 7270013

/** A batch's bodies, from one JSON array of `[digest, text]` pairs; a body already stored is left as it is. */
export const insertBodiesSql = (postgres: boolean) =>
  postgres
    ? `insert into control_journal_bodies (digest, body)
      select e->>0, e->>1 from json_array_elements(cast(? as json)) as e
      on conflict (digest) do nothing`
    : `insert into control_journal_bodies (digest, body)
      select value ->> 0, value ->> 1 from json_each(?) where true
      on conflict (digest) do nothing`

/**
 * Reserves the ids of a batch's entries: moves the journal's last id on by the batch's size (one
 * slot) and returns it. A clear leaves it as it is, so an id is never handed out twice. Run in the
 * batch's transaction: on PostgreSQL the row stays locked until the batch is in, so batches of
 * several processes take their ranges in turn.
 */
export const reserveIdsSql = (integer: Integer) =>
  `insert into meta (key, value) values ('journal_last_id', ?) on conflict (key) do update
    set value = cast(cast(meta.value as ${integer}) + cast(excluded.value as ${integer}) as text)
    returning value`

export const INSERT_BATCH_SQL = `insert into control_journal_batches
  (first_id, entries, process, last_at_ms, last_real_ms, rows, digests) values (?, ?, ?, ?, ?, ?, ?)`

/** Counts entries a process dropped because its buffer was full (one slot: how many, as text). */
export const addDroppedSql = (integer: Integer) =>
  `insert into meta (key, value) values ('journal_dropped', ?) on conflict (key) do update
    set value = cast(cast(meta.value as ${integer}) + cast(excluded.value as ${integer}) as text)`

/**
 * Trims the ring by whole batches: removes every batch all of whose entries are older than the
 * first slot (virtual clock, ms), and every batch whose newer batches hold the second slot's
 * number of entries already (so between that many and one batch more are kept).
 */
export const PRUNE_SQL = `delete from control_journal_batches where last_at_ms < ? or first_id <= (
  select first_id from (
    select first_id, sum(entries) over (order by first_id desc) - entries as newer
    from control_journal_batches) as t
  where newer >= ? order by first_id desc limit 1)`

/**
 * Bodies no entry names any more (the ring was trimmed past them), from each batch's list of the
 * bodies it names.
 */
export const pruneBodiesSql = (postgres: boolean) => `delete from control_journal_bodies where digest not in (
  select d.value from control_journal_batches as b,
    ${postgres ? 'json_array_elements_text(cast(b.digests as json))' : 'json_each(b.digests)'} as d
  where d.value is not null)`

/**
 * PostgreSQL: a whole batch in one statement, so in one round trip and its own transaction, the
 * driver's cost per statement being what a batch costs the journal's thread: the bodies lock
 * shared (see BODIES_LOCK), taken before anything else as every part reads from it, then the
 * batch's bodies (`$1`, `[digest, text]` pairs), its ids (`$2` entries), its row (`$3` process,
 * `$4` last time, `$5` last real time, `$6` rows, `$7` digests) and its drops (`$8`).
 */
export const POSTGRES_BATCH_SQL = `with lock as (select pg_advisory_xact_lock_shared(${BODIES_LOCK})),
  bodies as (
    insert into control_journal_bodies (digest, body)
    select e->>0, e->>1 from lock, json_array_elements(cast($1 as json)) as e
    on conflict (digest) do nothing),
  ids as (
    insert into meta (key, value) select 'journal_last_id', cast(cast($2 as integer) as text) from lock
    on conflict (key) do update
    set value = cast(cast(meta.value as bigint) + cast(excluded.value as bigint) as text)
    returning value),
  dropped as (
    insert into meta (key, value)
    select 'journal_dropped', cast(cast($8 as integer) as text) from lock where cast($8 as integer) > 0
    on conflict (key) do update
    set value = cast(cast(meta.value as bigint) + cast(excluded.value as bigint) as text))
  insert into control_journal_batches (first_id, entries, process, last_at_ms, last_real_ms, rows, digests)
  select cast(ids.value as bigint) - cast($2 as integer) + 1, cast($2 as integer), $3, $4, $5, $6, $7
  from ids where cast($2 as integer) > 0`

/** A statement's `?` slots as PostgreSQL's `$1`, `$2`, … */
export const numbered = (text: string): string => {
  let n = 0
  return text.replace(/\?/g, () => `$${++n}`)
}
