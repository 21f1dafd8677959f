import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { parseId } from '../../../common/ids.ts'
import { listInput, listRoute, route } from '../../../common/route-schemas.ts'
import { EmptyObjectSchema } from '../../../common/schemas.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { DeviceParamsSchema, TrustedDevicePageSchema, TrustedDeviceSchema } from './devices.schemas.ts'
import * as devices from './devices.service.ts'

export const devicesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/profile/devices',
    listRoute(
      profileRead,
      { operationId: 'getDevices', summary: 'List your active trusted devices (remember-me sessions)', tags },
      TrustedDevicePageSchema,
    ),
    async (request) => devices.listDevices(contextOf(request), listInput(request)),
  )

  app.get(
    '/profile/devices/:deviceId',
    route(
      profileRead,
      { operationId: 'getTrustedDevice', summary: 'View a trusted device', tags, params: DeviceParamsSchema },
      TrustedDeviceSchema,
    ),
    async (request) => devices.getDevice(contextOf(request), { deviceId: parseId(request.params.deviceId) }),
  )

  app.delete(
    '/profile/devices/:deviceId',
    route(
      profileWrite,
      {
        operationId: 'revokeTrustedDevice',
        summary: 'Revoke a trusted device; it must log in again',
        tags,
        params: DeviceParamsSchema,
      },
      EmptyObjectSchema,
    ),
    async (request) => {
      await devices.revokeDevice(contextOf(request), { deviceId: parseId(request.params.deviceId) })
      return {}
    },
  )
}
