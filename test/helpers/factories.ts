import { randomBytes } from 'node:crypto'
import { nowTimestamp } from '../../src/common/time.ts'
import { issueToken } from '../../src/modules/auth/issue-token.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from '../../src/modules/grants/grant-types.ts'
import { setEntityPermission, updateGlobalGrants } from '../../src/modules/grants/grants.repository.ts'
import { addUser, createAccountWithOwner } from '../../src/modules/users/users.service.ts'
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
export async function createAccount(api: TestApp, username = uniqueName('owner')): Promise<TestUser> {
  const { account, user } = await createAccountWithOwner(api.db, api.clock, {
    username,
    email: `${username}@example.com`,
  })
  const token = await createToken(api, user.id)
  return { accountId: account.id, user, token, headers: bearer(token) }
}

/** Another user in an existing account (restricted by default), with a `*` token. */
export async function createUser(
  api: TestApp,
  owner: { accountId: number },
  options: { restricted?: boolean; username?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? uniqueName('member')
  const user = await addUser(api.db, api.clock, owner.accountId, {
    username,
    email: `${username}@example.com`,
    restricted: options.restricted ?? true,
  })
  const token = await createToken(api, user.id)
  return { accountId: owner.accountId, user, token, headers: bearer(token) }
}

export async function createToken(
  api: TestApp,
  userId: number,
  options: { scopes?: string; expiry?: string | null; label?: string } = {},
): Promise<string> {
  const issued = await issueToken(api.db, {
    userId,
    label: options.label ?? 'test',
    scopes: options.scopes ?? '*',
    created: nowTimestamp(api.clock),
    expiry: options.expiry ?? null,
  })
  return issued.secret
}

export async function grantEntity(
  api: TestApp,
  user: TestUser,
  type: GrantEntityType,
  id: number,
  permission: Permission,
): Promise<void> {
  await setEntityPermission(api.db, user.user.id, type, id, permission)
}

export async function grantGlobal(api: TestApp, user: TestUser, flag: GlobalGrantFlag): Promise<void> {
  await updateGlobalGrants(api.db, user.user.id, { [flag]: true })
}
