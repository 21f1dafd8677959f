import { describe } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createImage, gz, rawImage, startUpload } from './image-helpers.ts'

describe('images: security', () => {
  const api = useTestApp()

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/images',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/images' }),
    },
    {
      method: 'GET',
      route: '/v4/images/compute/{slug}',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/images/compute%2Fubuntu22.04' }),
    },
    {
      method: 'GET',
      route: '/v4/images/private/{id}',
      scopes: ['images:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (app, owner) => ({ url: `/v4/images/${(await createImage(app, owner)).id}` }),
    },
    {
      method: 'POST',
      route: '/v4/images/upload',
      scopes: ['images:read_write'],
      success: 200,
      restricted: 403,
      prepare: async () => ({ url: '/v4/images/upload', payload: { label: 'secure', region: 'us-ord' } }),
    },
    {
      method: 'PUT',
      route: '/v4/images/{id}',
      scopes: ['images:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (app, owner) => ({
        url: `/v4/images/${encodeURIComponent((await createImage(app, owner)).id)}`,
        payload: { label: 'renamed' },
      }),
    },
    {
      method: 'DELETE',
      route: '/v4/images/{id}',
      scopes: ['images:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (app, owner) => ({ url: `/v4/images/${(await createImage(app, owner)).id}` }),
    },
    {
      method: 'PUT',
      route: '/image-uploads/{token} (upload_to)',
      scopes: 'public',
      success: 200,
      prepare: async (app, owner) => ({
        url: (await startUpload(app, owner)).path,
        payload: gz(rawImage(2048)),
      }),
    },
  ])
})
