import { type CatalogueOptions, seedCatalogue } from './catalogue/seed.ts'
import { type Clock, nowTimestamp } from './common/time.ts'
import type { Db } from './db/connect.ts'
import { lockForSeeding } from './db/dialects/dialect.ts'
import { getMeta, setMeta } from './db/meta.repository.ts'
import { migrateToLatest } from './db/migrate.ts'
import { inTransaction } from './db/transaction.ts'
import { issueToken } from './modules/auth/issue-token.ts'
import { hashTokenSecret, tokenPrefix } from './modules/auth/token-secret.ts'
import { insertTokenIfAbsent } from './modules/auth/tokens.repository.ts'
import { findUserById } from './modules/users/users.repository.ts'
import { createAccountWithOwner } from './modules/users/users.service.ts'

export const DEFAULT_USERNAME = 'admin'
export const DEFAULT_EMAIL = 'admin@example.com'

export interface SetupResult {
  migrations: string[]
  /**
   * Set on the start that created the default account; `database` when it made the database's
   * first one (not one again, for a default user someone removed): a seed file is for that start.
   */
  created?: { username: string; token?: string; database: boolean }
}

/**
 * Migrates, loads the catalogue and makes sure the default account exists. Every process may run
 * it at once on one database: migrations take their lock, and the rest runs in one transaction
 * behind a seeding lock, so exactly one process creates the default account.
 */
export async function prepareDatabase(
  db: Db,
  clock: Clock,
  options: { bootstrapToken?: string | undefined; defaultAccount?: boolean; catalogue?: CatalogueOptions },
): Promise<SetupResult> {
  const migrations = await migrateToLatest(db)
  const created = await inTransaction(db, async (trx) => {
    await lockForSeeding(trx)
    await seedCatalogue(trx, options.catalogue)
    if (options.defaultAccount === false) return undefined
    const known = await getMeta(trx, 'default_user_id')
    let userId = known !== undefined ? Number(known) : undefined
    let result: SetupResult['created']
    if (userId === undefined || (await findUserById(trx, userId)) === undefined) {
      const { user } = await createAccountWithOwner(trx, clock, {
        username: DEFAULT_USERNAME,
        email: DEFAULT_EMAIL,
      })
      userId = user.id
      await setMeta(trx, 'default_user_id', String(user.id))
      result = { username: user.username, database: known === undefined }
      if (options.bootstrapToken === undefined) {
        const issued = await issueToken(trx, {
          userId,
          label: 'first-start',
          scopes: '*',
          created: nowTimestamp(clock),
          expiry: null,
        })
        result.token = issued.secret
      }
    }
    if (options.bootstrapToken !== undefined) {
      await seedBootstrapToken(trx, clock, {
        userId,
        secret: options.bootstrapToken,
        newOwner: result !== undefined,
      })
    }
    return result
  })
  return created ? { migrations, created } : { migrations }
}

/**
 * Undoes what the start that created the database made of the default account (the account, its
 * owner and tokens, by cascade), when that start fails before it is ready: the next start then
 * creates it again, shows its token again and loads the seed file again. Without this a seed file
 * that failed was never loaded, since only the creating start loads one, and the token shown by
 * no start was lost.
 */
export async function forgetDefaultAccount(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await lockForSeeding(trx)
    const known = await getMeta(trx, 'default_user_id')
    const user = known === undefined ? undefined : await findUserById(trx, Number(known))
    if (user !== undefined) await trx.deleteFrom('accounts').where('id', '=', user.account_id).execute()
    await trx.deleteFrom('meta').where('key', 'in', ['default_user_id', 'bootstrap_token_hash']).execute()
  })
}

/** Bootstrap tokens remembered at most (the newest): rotations are rare. */
const REMEMBERED_BOOTSTRAP_TOKENS = 100

/**
 * Creates each configured bootstrap token once: a later start with a value seeded before leaves it
 * alone, so a revoked bootstrap token stays revoked, even when a process still configured with it
 * restarts after one with the operator's new value (a rolling rotation). A value never seen is the
 * operator's new token, and a re-created default owner gets the configured one again (it has no
 * other token).
 */
async function seedBootstrapToken(
  db: Db,
  clock: Clock,
  { userId, secret, newOwner }: { userId: number; secret: string; newOwner: boolean },
): Promise<void> {
  const hash = hashTokenSecret(secret)
  // Hashes separated by spaces, the newest last (one hash, as an earlier version stored it, reads too).
  const seeded = (await getMeta(db, 'bootstrap_token_hash'))?.split(' ') ?? []
  if (!newOwner && seeded.includes(hash)) return
  const remembered = [...seeded.filter((h) => h !== hash), hash].slice(-REMEMBERED_BOOTSTRAP_TOKENS)
  await setMeta(db, 'bootstrap_token_hash', remembered.join(' '))
  // Looked up first: an INSERT that meets the existing row would still draw (and waste) a token id.
  if (await tokenHashExists(db, secret)) return
  await insertTokenIfAbsent(db, {
    userId,
    label: 'bootstrap',
    scopes: '*',
    tokenHash: hash,
    tokenPrefix: tokenPrefix(secret),
    created: nowTimestamp(clock),
    expiry: null,
  })
}

async function tokenHashExists(db: Db, secret: string): Promise<boolean> {
  const row = await db
    .selectFrom('tokens')
    .select('id')
    .where('token_hash', '=', hashTokenSecret(secret))
    .executeTakeFirst()
  return row !== undefined
}
