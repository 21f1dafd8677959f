import { routeModule } from '../../../common/route-table.ts'
import { contextOf } from '../../../plugins/request-context.ts'
import { profileRead, profileWrite, PROFILE_TAGS as tags } from '../profile-scopes.ts'
import { DeviceParams, TrustedDevicePageSchema, TrustedDeviceSchema } from './devices.schemas.ts'
import * as devices from './devices.service.ts'

export const devicesRoutes = routeModule({ tags, context: contextOf }, (api) => {
  api.getList('/profile/devices', {
    auth: profileRead,
    operationId: 'getDevices',
    summary: 'List your active trusted devices (remember-me sessions)',
    response: TrustedDevicePageSchema,
    handler: (ctx, request) => devices.listDevices(ctx, request.list),
  })

  api.get('/profile/devices/:deviceId', {
    auth: profileRead,
    operationId: 'getTrustedDevice',
    summary: 'View a trusted device',
    params: DeviceParams,
    response: TrustedDeviceSchema,
    handler: (ctx, request) => devices.getDevice(ctx, request.ids),
  })

  api.delete('/profile/devices/:deviceId', {
    auth: profileWrite,
    operationId: 'revokeTrustedDevice',
    summary: 'Revoke a trusted device; it must log in again',
    params: DeviceParams,
    handler: (ctx, request) => devices.revokeDevice(ctx, request.ids),
  })
})
