import { describe } from 'node:test'
import { createInstance, firstConfig, label } from '../../helpers/api-fixtures.ts'
import type { TestApp } from '../../helpers/app.ts'
import { useTestApp } from '../../helpers/app.ts'
import { defined } from '../../helpers/defined.ts'
import type { TestUser } from '../../helpers/factories.ts'
import { type SecurityCase, securitySuite } from '../../helpers/security-suite.ts'

/** An offline instance with one profile holding a public interface. */
async function stopped(api: TestApp, owner: TestUser) {
  const instance = await createInstance(api, owner, { booted: false, interfaces: [{ purpose: 'public' }] })
  const config = await firstConfig(api, owner, instance.id)
  const base = `/v4/compute/instances/${instance.id}`
  return { instance, config, base, configUrl: `${base}/configs/${config.id}` }
}

const read = ['computes:read_only'] as SecurityCase['scopes']
const write = ['computes:read_write'] as SecurityCase['scopes']

const onInstance = (
  method: SecurityCase['method'],
  route: string,
  scopes: SecurityCase['scopes'],
  url: (s: Awaited<ReturnType<typeof stopped>>) => string,
  payload?: unknown,
): SecurityCase => ({
  method,
  route,
  prepare: async (api, owner) => {
    const s = await stopped(api, owner)
    return { url: url(s), ...(payload !== undefined && { payload }) }
  },
  scopes,
  success: 200,
  restricted: 403,
  crossAccount: true,
})

describe('compute routes: security', () => {
  const api = useTestApp()

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/compute/instances',
      prepare: async () => ({ url: '/v4/compute/instances' }),
      scopes: read,
      success: 200,
      restricted: 200,
    },
    {
      method: 'POST',
      route: '/v4/compute/instances',
      prepare: async () => ({
        url: '/v4/compute/instances',
        payload: { type: 'g6-nanode-1', region: 'us-iad', label: label('new') },
      }),
      scopes: write,
      success: 200,
      restricted: 403,
    },
    onInstance('GET', '/v4/compute/instances/{id}', read, (s) => s.base),
    onInstance('PUT', '/v4/compute/instances/{id}', write, (s) => s.base, { group: 'g' }),
    onInstance('DELETE', '/v4/compute/instances/{id}', write, (s) => s.base),
    onInstance('POST', '/v4/compute/instances/{id}/boot', write, (s) => `${s.base}/boot`),
    onInstance('POST', '/v4/compute/instances/{id}/reboot', write, (s) => `${s.base}/reboot`, {}),
    onInstance('POST', '/v4/compute/instances/{id}/shutdown', write, (s) => `${s.base}/shutdown`),
    onInstance('GET', '/v4/compute/instances/{id}/configs', read, (s) => `${s.base}/configs`),
    onInstance('POST', '/v4/compute/instances/{id}/configs', write, (s) => `${s.base}/configs`, {
      label: 'extra',
      devices: {},
    }),
    onInstance('GET', '/v4/compute/instances/{id}/configs/{configId}', read, (s) => s.configUrl),
    onInstance('PUT', '/v4/compute/instances/{id}/configs/{configId}', write, (s) => s.configUrl, {
      comments: 'x',
    }),
    onInstance('DELETE', '/v4/compute/instances/{id}/configs/{configId}', write, (s) => s.configUrl),
    onInstance(
      'GET',
      '/v4/compute/instances/{id}/configs/{configId}/interfaces',
      read,
      (s) => `${s.configUrl}/interfaces`,
    ),
    onInstance(
      'POST',
      '/v4/compute/instances/{id}/configs/{configId}/interfaces',
      write,
      (s) => `${s.configUrl}/interfaces`,
      {
        purpose: 'vlan',
        label: 'v',
      },
    ),
    {
      method: 'POST',
      route: '/v4/compute/instances/{id}/configs/{configId}/interfaces/order',
      prepare: async (api, owner) => {
        const s = await stopped(api, owner)
        return {
          url: `${s.configUrl}/interfaces/order`,
          payload: { ids: [defined(s.config.interfaces[0]).id] },
        }
      },
      scopes: write,
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    onInstance(
      'GET',
      '/v4/compute/instances/{id}/configs/{configId}/interfaces/{interfaceId}',
      read,
      (s) => `${s.configUrl}/interfaces/${defined(s.config.interfaces[0]).id}`,
    ),
    onInstance(
      'PUT',
      '/v4/compute/instances/{id}/configs/{configId}/interfaces/{interfaceId}',
      write,
      (s) => `${s.configUrl}/interfaces/${defined(s.config.interfaces[0]).id}`,
      { primary: true },
    ),
    onInstance(
      'DELETE',
      '/v4/compute/instances/{id}/configs/{configId}/interfaces/{interfaceId}',
      write,
      (s) => `${s.configUrl}/interfaces/${defined(s.config.interfaces[0]).id}`,
    ),
    onInstance('GET', '/v4/compute/instances/{id}/disks', read, (s) => `${s.base}/disks`),
    onInstance(
      'GET',
      '/v4/compute/instances/{id}/disks/{diskId}',
      read,
      (s) => `${s.base}/disks/${defined(s.config.devices.sda).disk_id}`,
    ),
    {
      method: 'GET',
      route: '/v4/compute/types',
      prepare: async () => ({ url: '/v4/compute/types' }),
      scopes: 'public',
      success: 200,
    },
    {
      method: 'GET',
      route: '/v4/compute/types/{id}',
      prepare: async () => ({ url: '/v4/compute/types/g6-nanode-1' }),
      scopes: 'public',
      success: 200,
    },
  ])
})
