import assert from 'node:assert/strict'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

export interface CreatedClient {
  id: string
  secret: string
  label: string
  redirect_uri: string
  public: boolean
  status: string
  thumbnail_url: string | null
}

/** Registers an OAuth client through the API. */
export async function createOAuthClient(
  api: TestApp,
  owner: TestUser,
  options: { public?: boolean; label?: string; redirectUri?: string } = {},
): Promise<CreatedClient> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/account/oauth-clients',
    headers: owner.headers,
    payload: {
      label: options.label ?? 'Test App',
      redirect_uri: options.redirectUri ?? 'https://app.example.com/callback',
      ...(options.public !== undefined && { public: options.public }),
    },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
