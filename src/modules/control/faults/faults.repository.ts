import type { Db } from '../../../db/connect.ts'
import type { FaultEffect, FaultRule } from './fault-rules.ts'
import type { FaultRow } from './faults.table.ts'

/** A rule as it is added: the database numbers it, and it has not fired yet. */
export type NewFaultRule = Omit<FaultRule, 'id' | 'fired'>

const toRule = (row: FaultRow): FaultRule => ({
  id: Number(row.id),
  created: row.created,
  method: row.method,
  path: row.path,
  accountId: row.account_id === null ? null : Number(row.account_id),
  tokenId: row.token_id === null ? null : Number(row.token_id),
  probability: Number(row.probability),
  times: row.times === null ? null : Number(row.times),
  fired: Number(row.fired),
  seed: row.seed,
  preset: row.preset,
  effect: JSON.parse(row.effect) as FaultEffect,
})

export async function listFaultRules(db: Db): Promise<FaultRule[]> {
  const rows = await db.selectFrom('control_faults').selectAll().orderBy('id').execute()
  return rows.map(toRule)
}

export async function insertFaultRules(db: Db, rules: NewFaultRule[]): Promise<FaultRule[]> {
  if (rules.length === 0) return []
  const rows = await db
    .insertInto('control_faults')
    .values(
      rules.map((r) => ({
        created: r.created,
        method: r.method,
        path: r.path,
        account_id: r.accountId,
        token_id: r.tokenId,
        probability: r.probability,
        times: r.times,
        fired: 0,
        seed: r.seed,
        preset: r.preset,
        effect: JSON.stringify(r.effect),
      })),
    )
    .returningAll()
    .execute()
  return rows.map(toRule)
}

/** Deletes one rule (true if it was there), or every rule when no id is given. */
export async function deleteFaultRules(db: Db, id?: number): Promise<number> {
  let query = db.deleteFrom('control_faults')
  if (id !== undefined) query = query.where('id', '=', id)
  const result = await query.executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Counts one firing of the rule, atomically across processes: false when the rule has used up its
 * `times` (or is gone), so no two processes fire a once-only rule twice.
 */
export async function claimFiring(db: Db, rule: FaultRule): Promise<boolean> {
  let query = db
    .updateTable('control_faults')
    .set((eb) => ({ fired: eb('fired', '+', 1) }))
    .where('id', '=', rule.id)
  if (rule.times !== null) query = query.where('fired', '<', rule.times)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function findAccountOfUsername(db: Db, username: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('account_id')
    .where('username', '=', username)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.account_id)
}
