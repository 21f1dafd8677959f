import type { Insertable, Selectable, Updateable } from 'kysely'
import type { SerialKey, Timestamps } from '../../../db/columns.ts'

export interface ScriptTable extends SerialKey, Timestamps {
  /** NULL for the public catalogue's scripts. */
  account_id: number | null
  /** The catalogue's key of a public catalogue script, else NULL. */
  catalogue_key: string | null
  username: string
  user_gravatar_id: string
  label: string
  description: string
  ordinal: number
  logo_url: string
  /** JSON array of image ids (or `any/all`). */
  images: string
  deployments_total: number
  deployments_active: number
  is_public: boolean
  rev_note: string
  script: string
  /** JSON array of the fields parsed from the script's UDF tags. */
  user_defined_fields: string
}

export type ScriptRow = Selectable<ScriptTable>
export type NewScriptRow = Insertable<ScriptTable>
export type ScriptRowUpdate = Updateable<ScriptTable>
