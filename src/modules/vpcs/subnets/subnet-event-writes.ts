import { sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'
import { defineShaped, runPrepared, slot } from '../../../db/prepared.ts'
import { EVENT_COLUMNS, toRow } from '../../events/event-row.ts'
import type { NewEvent } from '../../events/event-types.ts'
import type { NewEventRow } from '../../events/events.table.ts'
import { subnetJsonParts } from '../vpc-json.ts'
import { noAttachmentOn } from './subnet-attachments.repository.ts'
import { subnetSlots } from './subnets.repository.ts'
import type { SubnetRow } from './subnets.table.ts'

/*
 * PostgreSQL: a subnet write and its event in one statement (a data-modifying WITH), so the
 * hot writes cost one round trip less each; they still run in the request's transaction, after
 * its locks, and commit together. SQLite cannot modify data in a WITH, and its statements cost
 * no round trip: it runs them one by one (subnets.service.ts).
 */

type NoShape = Record<string, never>

/** The event's columns as slots `e_<column>`, apart from the write's own. */
const eventSlots = () =>
  Object.fromEntries(EVENT_COLUMNS.map((c) => [c, slot(`e_${c}`)])) as unknown as NewEventRow

const eventValues = (event: NewEvent) => {
  const row = toRow(event) as unknown as Record<string, unknown>
  return Object.fromEntries(EVENT_COLUMNS.map((c) => [`e_${c}`, row[c] ?? null]))
}

const statements = defineShaped('subnet write with its event', (db, _shape: NoShape) => ({
  insert: (db as Db)
    .with('s', (w) => w.insertInto('subnets').values({ id: slot<number>('id'), ...subnetSlots() }))
    .insertInto('events')
    .values(eventSlots())
    .returning('id')
    .compile(),
  // The event is inserted whether or not the subnet was deleted; `deleted` 0 (in use) makes the
  // caller refuse, and its transaction takes the event back.
  delete: (db as Db)
    .with('d', (w) =>
      w
        .deleteFrom('subnets')
        .where('id', '=', slot<number>('id'))
        .where(noAttachmentOn(sql<number>`${slot<number>('id')}`))
        .returning('id'),
    )
    .insertInto('events')
    .values(eventSlots())
    .returning((eb) => ['id', eb.selectFrom('d').select(eb.fn.countAll<number>().as('n')).as('deleted')])
    .compile(),
}))

/** Inserts the subnet under its id (taken beforehand from its sequence) and its event. */
export async function insertSubnetWithEvent(
  db: Db,
  fields: Omit<SubnetRow, 'json_head' | 'json_tail'>,
  event: NewEvent,
): Promise<SubnetRow> {
  const row = { ...fields, ...subnetJsonParts(fields) }
  await runPrepared(db, statements(db, {}).insert, { ...row, ...eventValues(event) })
  return row
}

/**
 * Deletes the subnet unless a config interface uses it, and records its event; false (and the
 * event inserted, for the caller's transaction to roll back) when it is in use.
 */
export async function deleteSubnetWithEvent(db: Db, id: number, event: NewEvent): Promise<boolean> {
  const { rows } = await runPrepared(db, statements(db, {}).delete, { id, ...eventValues(event) })
  return Number(rows[0]?.deleted ?? 0) > 0
}
