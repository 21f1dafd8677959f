import { changeCounterNow } from '../../../db/change-counters.ts'
import { changeCounter, type Db } from '../../../db/connect.ts'
import type { FaultDice, FaultRule } from './fault-rules.ts'
import { listFaultRules } from './faults.repository.ts'

const FAULTS_COUNTER = 'faults'

/**
 * This process's copy of the fault rules, re-read only when the `faults` change counter moves
 * (a rule added or removed by any process): with no rules, a request pays one counter read (on
 * SQLite a prepared single-row read; on PostgreSQL it joins the turn's batched counter read).
 */
export class FaultCache {
  readonly #db: Db
  readonly #dice: FaultDice
  #rules: FaultRule[] = []
  #seen: number | undefined

  constructor(db: Db, dice: FaultDice) {
    this.#db = db
    this.#dice = dice
  }

  /** `counters`: the request's change counters (plugins/db.ts), read after it started. */
  async rules(counters?: Promise<ReadonlyMap<string, number>>): Promise<FaultRule[]> {
    const stamp =
      counters !== undefined
        ? (await counters).get(FAULTS_COUNTER)
        : (changeCounter(this.#db, FAULTS_COUNTER) ?? (await changeCounterNow(this.#db, FAULTS_COUNTER)))
    if (stamp !== undefined && stamp === this.#seen) return this.#rules
    const rules = await listFaultRules(this.#db)
    if (stamp !== this.#seen) this.#dice.reset()
    this.#rules = rules
    this.#seen = stamp
    return rules
  }
}
