import { type CatalogueOptions, seedCatalogue } from './catalogue/seed.ts'
import { type Clock, nowTimestamp } from './common/time.ts'
import type { Db } from './db/connect.ts'
import { lockForSeeding } from './db/dialects/dialect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { inTransaction } from './db/transaction.ts'
import { createAccountWithOwner } from './modules/accounts/accounts.service.ts'
import { issueToken } from './modules/auth/issue-token.ts'
import { hashTokenSecret, tokenPrefix } from './modules/auth/token-secret.ts'
import { insertTokenIfAbsent } from './modules/auth/tokens.repository.ts'
import { findUserById } from './modules/users/users.repository.ts'

export const DEFAULT_USERNAME = 'admin'
export const DEFAULT_EMAIL = 'admin@example.com'
const DEFAULT_USER_KEY = 'default_user_id'

export interface SetupResult {
  migrations: string[]
  /** Set on the start that created the default account. */
  created?: { username: string; token?: string }
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
    const known = await trx
      .selectFrom('meta')
      .select('value')
      .where('key', '=', DEFAULT_USER_KEY)
      .executeTakeFirst()
    let userId = known ? Number(known.value) : undefined
    let result: SetupResult['created']
    if (userId === undefined || (await findUserById(trx, userId)) === undefined) {
      const { user } = await createAccountWithOwner(trx, clock, {
        username: DEFAULT_USERNAME,
        email: DEFAULT_EMAIL,
      })
      userId = user.id
      await trx
        .insertInto('meta')
        .values({ key: DEFAULT_USER_KEY, value: String(user.id) })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(user.id) }))
        .execute()
      result = { username: user.username }
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
      await insertTokenIfAbsent(trx, {
        userId,
        label: 'bootstrap',
        scopes: '*',
        tokenHash: hashTokenSecret(options.bootstrapToken),
        tokenPrefix: tokenPrefix(options.bootstrapToken),
        created: nowTimestamp(clock),
        expiry: null,
      })
    }
    return result
  })
  return created ? { migrations, created } : { migrations }
}
