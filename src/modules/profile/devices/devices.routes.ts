import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { parsePageQuery } from '../../../common/pagination.ts'
import {
  EmptyObjectSchema,
  errorResponses,
  FilterHeadersSchema,
  PageQuerySchema,
} from '../../../common/schemas.ts'
import { requireActor } from '../../../plugins/auth.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { DeviceParamsSchema, TrustedDevicePageSchema, TrustedDeviceSchema } from './devices.schemas.ts'
import * as devices from './devices.service.ts'

export const devicesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/devices',
    {
      schema: {
        operationId: 'getDevices',
        summary: 'List your active trusted devices (remember-me sessions)',
        tags,
        querystring: PageQuerySchema,
        headers: FilterHeadersSchema,
        response: { 200: TrustedDevicePageSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      devices.listDevices(
        app.db,
        app.clock,
        requireActor(request),
        parsePageQuery(request.query),
        request.headers['x-filter'],
      ),
  )

  app.get(
    '/profile/devices/:deviceId',
    {
      schema: {
        operationId: 'getTrustedDevice',
        summary: 'View a trusted device',
        tags,
        params: DeviceParamsSchema,
        response: { 200: TrustedDeviceSchema, ...errorResponses },
      },
      config: { auth: profileRead },
    },
    async (request) =>
      devices.getDevice(app.db, app.clock, requireActor(request), parseId(request.params.deviceId)),
  )

  app.delete(
    '/profile/devices/:deviceId',
    {
      schema: {
        operationId: 'revokeTrustedDevice',
        summary: 'Revoke a trusted device; it must log in again',
        tags,
        params: DeviceParamsSchema,
        response: { 200: EmptyObjectSchema, ...errorResponses },
      },
      config: { auth: profileWrite },
    },
    async (request) => {
      await devices.revokeDevice(app.db, app.clock, requireActor(request), parseId(request.params.deviceId))
      return {}
    },
  )
}
