import { randomBytes } from 'node:crypto'
import { nowTimestamp } from '../../src/common/time.ts'
import { addUser, createAccountWithOwner } from '../../src/modules/accounts/accounts.service.ts'
import { issueToken } from '../../src/modules/auth/issue-token.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from '../../src/modules/grants/grant-types.ts'
import { setEntityPermission, updateGlobalGrants } from '../../src/modules/grants/grants.repository.ts'
import type { UserRow } from '../../src/modules/users/users.table.ts'
import type { TestApp } from './app.ts'

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

export const uniqueName = (prefix = 'user') => `${prefix}-${randomBytes(5).toString('hex')}`

export interface TestUser {
  accountId: number
  user: UserRow
  token: string
  headers: { authorization: string }
}

/** A new account with an unrestricted user holding a `*` token. */
export async function createAccount(t: TestApp, username = uniqueName('owner')): Promise<TestUser> {
  const { account, user } = await createAccountWithOwner(t.db, t.clock, {
    username,
    email: `${username}@example.com`,
  })
  const token = await createToken(t, user.id)
  return { accountId: account.id, user, token, headers: bearer(token) }
}

/** Another user in an existing account (restricted by default), with a `*` token. */
export async function createUser(
  t: TestApp,
  owner: { accountId: number },
  options: { restricted?: boolean; username?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName('member')
  const user = await addUser(t.db, t.clock, owner.accountId, {
    username,
    email: `${username}@example.com`,
    restricted: options.restricted ?? true,
  })
  const token = await createToken(t, user.id)
  return { accountId: owner.accountId, user, token, headers: bearer(token) }
}

export async function createToken(
  t: TestApp,
  userId: number,
  options: { scopes?: string; expiry?: string | null; label?: string } = {},
): Promise<string> {
  const issued = await issueToken(t.db, {
    userId,
    label: options.label ?? 'test',
    scopes: options.scopes ?? '*',
    created: nowTimestamp(t.clock),
    expiry: options.expiry ?? null,
  })
  return issued.secret
}

export async function grantEntity(
  t: TestApp,
  user: TestUser,
  type: GrantEntityType,
  id: number,
  permission: Permission,
): Promise<void> {
  await setEntityPermission(t.db, user.user.id, type, id, permission)
}

export async function grantGlobal(t: TestApp, user: TestUser, flag: GlobalGrantFlag): Promise<void> {
  await updateGlobalGrants(t.db, user.user.id, { [flag]: true })
}
