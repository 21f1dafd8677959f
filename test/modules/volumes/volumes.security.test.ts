import { describe } from 'node:test'
import { createInstance } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { activeVolume, createVolume } from './volume-fixtures.ts'

describe('volume routes: security', () => {
  const api = useTestApp()
  const one = async (owner: TestUser) => `/v4/volumes/${(await createVolume(api, owner)).id}`
  const read = ['volumes:read_only'] as const
  const write = ['volumes:read_write'] as const

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/volumes',
      prepare: async () => ({ url: '/v4/volumes' }),
      scopes: [...read],
      success: 200,
      restricted: 200,
    },
    {
      method: 'GET',
      route: '/v4/volumes/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      scopes: [...read],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/volumes',
      prepare: async () => ({ url: '/v4/volumes', payload: { label: 'sec', region: 'us-iad' } }),
      scopes: [...write],
      success: 200,
      restricted: 403,
    },
    {
      method: 'PUT',
      route: '/v4/volumes/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner), payload: { tags: ['secure'] } }),
      scopes: [...write],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/volumes/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      scopes: [...write],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/volumes/{id}/attach',
      prepare: async (_api, owner) => {
        const instance = await createInstance(api, owner)
        return { url: `${await one(owner)}/attach`, payload: { linode_id: instance.id } }
      },
      scopes: [...write],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/volumes/{id}/detach',
      prepare: async (_api, owner) => {
        const instance = await createInstance(api, owner)
        const volume = await createVolume(api, owner, { linode_id: instance.id })
        return { url: `/v4/volumes/${volume.id}/detach` }
      },
      scopes: [...write],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/volumes/{id}/resize',
      prepare: async (_api, owner) => ({
        url: `/v4/volumes/${(await activeVolume(api, owner)).id}/resize`,
        payload: { size: 40 },
      }),
      scopes: [...write],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
  ])
})
