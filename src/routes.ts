import type { FastifyInstance } from 'fastify'
import { configsRoutes } from './modules/compute/configs/configs.routes.ts'
import { disksRoutes } from './modules/compute/disks/disks.routes.ts'
import { instancesRoutes } from './modules/compute/instances/instances.routes.ts'
import { interfacesRoutes } from './modules/compute/interfaces/interfaces.routes.ts'
import { computeTypesRoutes } from './modules/compute/types/types.routes.ts'
import { eventsRoutes } from './modules/events/events.routes.ts'
import { grantsRoutes } from './modules/grants/grants.routes.ts'
import { imagesRoutes } from './modules/images/images.routes.ts'
import { profileRoutes } from './modules/profile/profile.routes.ts'
import { regionsRoutes } from './modules/regions/regions.routes.ts'
import { usersRoutes } from './modules/users/users.routes.ts'
import { vpcIpsRoutes } from './modules/vpcs/ips/vpc-ips.routes.ts'
import { subnetsRoutes } from './modules/vpcs/subnets/subnets.routes.ts'
import { vpcsRoutes } from './modules/vpcs/vpcs.routes.ts'
import { openapiRoute } from './plugins/openapi.ts'

/** Every API route module, registered explicitly so the wiring can be read (and grepped) here. */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(openapiRoute)
  await app.register(regionsRoutes)
  await app.register(imagesRoutes)
  await app.register(profileRoutes)
  await app.register(usersRoutes)
  await app.register(grantsRoutes)
  await app.register(eventsRoutes)
  await app.register(vpcsRoutes)
  await app.register(subnetsRoutes)
  await app.register(vpcIpsRoutes)
  await app.register(computeTypesRoutes)
  await app.register(instancesRoutes)
  await app.register(configsRoutes)
  await app.register(interfacesRoutes)
  await app.register(disksRoutes)
}

/** The API is served under both roots (Decisions, 6). */
export const API_PREFIXES = ['/v4', '/v4beta']
