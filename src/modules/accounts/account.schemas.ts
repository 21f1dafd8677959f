import { type Static, Type } from 'typebox'
import { Nullable, TimestampSchema } from '../../common/schemas.ts'
import { term } from '../../vocabulary/terms.ts'

/** The account in the key order the real API returns it (recorded at 4.174.0). */
export const AccountSchema = Type.Object({
  company: Type.String(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  address_1: Type.String(),
  address_2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zip: Type.String(),
  country: Type.String(),
  phone: Type.String(),
  balance: Type.Number(),
  tax_id: Type.String(),
  credit_card: Type.Object({ last_four: Nullable(Type.String()), expiry: Nullable(Type.String()) }),
  balance_uninvoiced: Type.Number(),
  active_since: TimestampSchema,
  capabilities: Type.Array(Type.String(term('capability'))),
  active_promotions: Type.Array(Type.Object({})),
  euuid: Type.String(),
})
export type Account = Static<typeof AccountSchema>

const contact = (maxLength: number) => Type.Optional(Type.String({ maxLength }))

/** The contact fields, the only ones an update changes (limits of the official client's rules). */
export const UpdateAccountBodySchema = Type.Object({
  company: contact(128),
  email: contact(128),
  first_name: contact(50),
  last_name: contact(50),
  address_1: contact(64),
  address_2: contact(64),
  city: contact(24),
  state: contact(24),
  zip: contact(16),
  country: Type.Optional(
    Type.String({ pattern: '^[A-Za-z]{2}$', 'x-reason': 'Country code must be two letters.' }),
  ),
  phone: contact(32),
  tax_id: contact(100),
})
export type UpdateAccountBody = Static<typeof UpdateAccountBodySchema>
/** The fields an account update may change: those its body's schema names. */
export const CONTACT_FIELDS = Object.keys(UpdateAccountBodySchema.properties) as (keyof UpdateAccountBody)[]

const UsageSchema = {
  billable: Type.Integer(),
  quota: Type.Integer(),
  used: Type.Integer(),
}

/** The month's network transfer in GB: the pool, what was used, and what is billed beyond it. */
export const TransferSchema = Type.Object({
  ...UsageSchema,
  region_transfers: Type.Array(Type.Object({ id: Type.String(), ...UsageSchema })),
})
export type Transfer = Static<typeof TransferSchema>
