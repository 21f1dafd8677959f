import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { Domain } from '../../../src/modules/domains/domains.schemas.ts'
import type { DomainRecord } from '../../../src/modules/domains/records/records.schemas.ts'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

export const zoneName = () => `zone-${randomBytes(4).toString('hex')}.example`

/** A primary domain made through the API. */
export async function createDomain(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
): Promise<Domain> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/domains',
    headers: owner.headers,
    payload: { domain: zoneName(), type: 'master', soa_email: 'admin@example.org', ...body },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

export async function createRecord(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  domainId: number,
  body: Record<string, unknown> = { type: 'A', name: 'www', target: '192.0.2.10' },
): Promise<DomainRecord> {
  const res = await api.request({
    method: 'POST',
    url: `/v4/domains/${domainId}/records`,
    headers: owner.headers,
    payload: body,
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
