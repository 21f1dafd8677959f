import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import type { Config } from '../../src/modules/compute/configs/configs.schemas.ts'
import type { CreateInstanceBody, Instance } from '../../src/modules/compute/instances/instances.schemas.ts'
import type { CreateSubnetBody, Subnet } from '../../src/modules/vpcs/subnets/subnets.schemas.ts'
import type { CreateVpcBody, Vpc } from '../../src/modules/vpcs/vpcs.schemas.ts'
import type { TestApp } from './app.ts'
import type { TestUser } from './factories.ts'
import { wireImageId, wirePath } from './naming.ts'

// Resources that tests of several domains need (VPCs, subnets, instances, config profiles), made
// through the API as a client would, typed as the API answers them.

/** A unique label. */
export const label = (prefix = 'net') => `${prefix}-${randomBytes(4).toString('hex')}`

/** A VPC as created with the subnets `S`: one subnet per requested one, so `subnets[0]` is typed when asked for. */
export type VpcWith<S extends readonly CreateSubnetBody[]> = Omit<Vpc, 'subnets'> & {
  subnets: { -readonly [K in keyof S]: Subnet }
}

export async function createVpc<const S extends readonly CreateSubnetBody[] = []>(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Partial<Omit<CreateVpcBody, 'subnets'>> & { subnets?: S } = {},
): Promise<VpcWith<S>> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/vpcs',
    headers: owner.headers,
    payload: { label: label('vpc'), region: 'us-iad', ...body },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

export async function createSubnet(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  vpcId: number,
  ipv4: string,
): Promise<Subnet> {
  const res = await api.request({
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
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Partial<CreateInstanceBody> = {},
): Promise<Instance> {
  const res = await api.request({
    method: 'POST',
    url: wirePath('/v4/compute/instances'),
    headers: owner.headers,
    payload: {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: wireImageId('compute/debian12'),
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
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  instanceId: number,
): Promise<Config> {
  const res = await api.request({
    method: 'GET',
    url: wirePath(`/v4/compute/instances/${instanceId}/configs`),
    headers: owner.headers,
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.data[0]
}

export async function power(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  instanceId: number,
  action: 'boot' | 'shutdown' | 'reboot',
  payload?: object,
): Promise<void> {
  const res = await api.request({
    method: 'POST',
    url: wirePath(`/v4/compute/instances/${instanceId}/${action}`),
    headers: owner.headers,
    ...(payload !== undefined && { payload }),
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
}
