import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest, notFound } from '../../common/errors.ts'
import { nowTimestamp } from '../../common/time.ts'
import { buildEvent } from '../events/event-builder.ts'
import { recordEvents } from '../events/events.service.ts'
import { assertAccountAccess } from '../grants/authorize.ts'
import { type Account, CONTACT_FIELDS, type Transfer, type UpdateAccountBody } from './account.schemas.ts'
import * as repo from './accounts.repository.ts'
import type { AccountRow } from './accounts.table.ts'
import type { TransferQuotas } from './transfer-quotas.ts'

/** What every account can use, in the document's words (the vocabulary renames them on the wire). */
const ACCOUNT_CAPABILITIES = [
  'Computes',
  'NodeBalancers',
  'Block Storage',
  'Object Storage',
  'Kubernetes',
  'Cloud Firewall',
  'Vlans',
  'Machine Images',
  'Managed Databases',
  'VPCs',
]

function toAccount(row: AccountRow): Account {
  return {
    company: row.company,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    address_1: row.address_1,
    address_2: row.address_2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    country: row.country,
    phone: row.phone,
    // Nothing is billed: the balances stay zero and no card is on file.
    balance: 0,
    tax_id: row.tax_id,
    credit_card: { last_four: null, expiry: null },
    balance_uninvoiced: 0,
    active_since: row.created,
    capabilities: ACCOUNT_CAPABILITIES,
    active_promotions: [],
    euuid: row.uuid,
  }
}

async function findOwnAccount(ctx: RequestContext): Promise<AccountRow> {
  const row = await repo.findAccount(ctx.db, ctx.actor.accountId)
  if (row === undefined) throw notFound()
  return row
}

export async function getAccount(ctx: RequestContext): Promise<Account> {
  await assertAccountAccess(ctx.db, ctx.actor, 'read_only')
  return toAccount(await findOwnAccount(ctx))
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

/** Changes the contact fields sent; the others keep their values. */
export async function updateAccount(ctx: RequestContext, input: UpdateAccountBody): Promise<Account> {
  return inContextTransaction(ctx, async (tx) => {
    await assertAccountAccess(tx.db, tx.actor, 'read_write')
    const current = await findOwnAccount(tx)
    if (input.email !== undefined && !EMAIL.test(input.email)) {
      throw badRequest('Must be a valid email address', 'email')
    }
    // The contact fields alone: the body's schema lets other keys through, and they must never
    // name a column.
    const changes = Object.fromEntries(
      CONTACT_FIELDS.flatMap((field) => (input[field] === undefined ? [] : [[field, input[field]]])),
    )
    if (typeof changes.country === 'string') changes.country = changes.country.toUpperCase()
    const row =
      Object.keys(changes).length === 0 ? current : await repo.updateAccount(tx.db, current.id, changes)
    const entity = { type: 'account', id: null, label: null, url: '/v4/account' }
    await recordEvents(tx.db, [
      buildEvent(tx.actor, 'account_update', { entity, grant: null }, nowTimestamp(tx.clock)),
    ])
    return toAccount(row)
  })
}

/**
 * The month's transfer pool, in GB: each instance's type adds its `transfer` to the pool of its
 * region and to the account's. No traffic flows through an emulated instance, so nothing is used
 * and nothing billed (docs/decisions.md#transfer-pool).
 */
export async function getTransfer(ctx: RequestContext, quotas: TransferQuotas): Promise<Transfer> {
  await assertAccountAccess(ctx.db, ctx.actor, 'read_only')
  const regions = await quotas.byRegion(ctx)
  const usage = (quota: number) => ({ billable: 0, quota, used: 0 })
  return {
    ...usage(regions.reduce((sum, r) => sum + r.quota, 0)),
    region_transfers: regions.map((r) => ({ id: r.region, ...usage(r.quota) })),
  }
}
