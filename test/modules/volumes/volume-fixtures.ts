import assert from 'node:assert/strict'
import type { Volume } from '../../../src/modules/volumes/volumes.schemas.ts'
import { label } from '../../helpers/api-fixtures.ts'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

/** A volume made through the API, in us-iad unless said. */
export async function createVolume(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
): Promise<Volume> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/volumes',
    headers: owner.headers,
    payload: { label: label('vol'), region: 'us-iad', ...body },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

/** A volume that has finished provisioning. */
export async function activeVolume(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
): Promise<Volume> {
  const volume = await createVolume(api, owner, body)
  await api.app.jobs.runPendingJobs()
  return { ...volume, status: 'active' }
}
