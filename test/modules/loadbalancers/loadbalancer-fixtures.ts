import assert from 'node:assert/strict'
import type { LoadBalancer } from '../../../src/modules/loadbalancers/loadbalancers.schemas.ts'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

/** A load balancer made through the API, in us-iad unless said. */
export async function createLoadBalancer(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
): Promise<LoadBalancer> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/loadbalancers',
    headers: owner.headers,
    payload: { region: 'us-iad', ...body },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
