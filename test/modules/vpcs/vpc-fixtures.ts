import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { TestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'

/** Test data made through the API, as a client would. */
export const label = (prefix = 'net') => `${prefix}-${randomBytes(4).toString('hex')}`

export async function createVpc(
  t: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
): Promise<any> {
  const res = await t.request({
    method: 'POST',
    url: '/v4/vpcs',
    headers: owner.headers,
    payload: { label: label('vpc'), region: 'us-iad', ...body },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

export async function createSubnet(
  t: TestApp,
  owner: Pick<TestUser, 'headers'>,
  vpcId: number,
  ipv4: string,
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
): Promise<any> {
  const res = await t.request({
    method: 'POST',
    url: `/v4/vpcs/${vpcId}/subnets`,
    headers: owner.headers,
    payload: { label: label('subnet'), ipv4 },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

export const ROOT_PASS = 'Str0ng-Passw0rd!'

/** An instance deployed from Debian 12 (running unless `booted: false`). */
export async function createInstance(
  t: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
): Promise<any> {
  const res = await t.request({
    method: 'POST',
    url: '/v4/compute/instances',
    headers: owner.headers,
    payload: {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: 'compute/debian12',
      root_pass: ROOT_PASS,
      label: label('web'),
      ...body,
    },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

/** The instance's first config profile (the one created with it). */
export async function firstConfig(
  t: TestApp,
  owner: Pick<TestUser, 'headers'>,
  instanceId: number,
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely
): Promise<any> {
  const res = await t.request({
    method: 'GET',
    url: `/v4/compute/instances/${instanceId}/configs`,
    headers: owner.headers,
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.data[0]
}

export async function power(
  t: TestApp,
  owner: Pick<TestUser, 'headers'>,
  instanceId: number,
  action: 'boot' | 'shutdown' | 'reboot',
  payload?: object,
): Promise<void> {
  const res = await t.request({
    method: 'POST',
    url: `/v4/compute/instances/${instanceId}/${action}`,
    headers: owner.headers,
    ...(payload !== undefined && { payload }),
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
}
