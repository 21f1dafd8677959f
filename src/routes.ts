import type { FastifyInstance } from 'fastify'
import { accountRoutes } from './modules/accounts/account.routes.ts'
import { configsRoutes } from './modules/compute/configs/configs.routes.ts'
import { disksRoutes } from './modules/compute/disks/disks.routes.ts'
import { instancesRoutes } from './modules/compute/instances/instances.routes.ts'
import { transferQuotas } from './modules/compute/instances/instances.service.ts'
import { interfacesRoutes } from './modules/compute/interfaces/interfaces.routes.ts'
import { scriptsRoutes } from './modules/compute/scripts/scripts.routes.ts'
import { computeTypesRoutes } from './modules/compute/types/types.routes.ts'
import { domainsRoutes } from './modules/domains/domains.routes.ts'
import { domainRecordsRoutes } from './modules/domains/records/records.routes.ts'
import { eventsRoutes } from './modules/events/events.routes.ts'
import { imagesRoutes } from './modules/images/images.routes.ts'
import { findDeployableImage } from './modules/images/images.service.ts'
import { loadbalancersRoutes } from './modules/loadbalancers/loadbalancers.routes.ts'
import { oauthClientsRoutes } from './modules/oauth-clients/oauth-clients.routes.ts'
import { profileRoutes } from './modules/profile/profile.routes.ts'
import { regionsRoutes } from './modules/regions/regions.routes.ts'
import { userGrantsRoutes } from './modules/users/user-grants.routes.ts'
import { usersRoutes } from './modules/users/users.routes.ts'
import { volumesRoutes } from './modules/volumes/volumes.routes.ts'
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
  await app.register(userGrantsRoutes)
  await app.register(eventsRoutes)
  await app.register(oauthClientsRoutes)
  await app.register(vpcsRoutes)
  await app.register(subnetsRoutes)
  await app.register(vpcIpsRoutes)
  await app.register(computeTypesRoutes)
  await app.register(instancesRoutes, { images: { find: findDeployableImage } })
  await app.register(configsRoutes)
  await app.register(interfacesRoutes)
  await app.register(disksRoutes)
  await app.register(accountRoutes, { transfer: transferQuotas })
  await app.register(loadbalancersRoutes)
  await app.register(volumesRoutes)
  await app.register(domainsRoutes)
  await app.register(domainRecordsRoutes)
  await app.register(scriptsRoutes, { images: { find: findDeployableImage } })
}

/** The API's root: every API route is registered under it, once. */
export const API_ROOT = '/v4'

const BETA_ROOT = '/v4beta'
/** A request target's scheme and authority, in absolute form. */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i

/**
 * Fastify's `rewriteUrl`: `/v4beta` serves the same API as `/v4` (docs/decisions.md#api-roots), so
 * its requests are routed as `/v4` ones instead of every route being registered twice (that was a
 * quarter of building the app, on every start). `request.originalUrl` keeps what the client sent.
 */
export function routedUrl(req: { url?: string; originalUrl?: string }): string {
  let url = req.url ?? '/'
  if (url.charCodeAt(0) !== 0x2f /* / */ && ABSOLUTE_FORM.test(url)) {
    // `GET http://host/v4/regions` (RFC 9112 §3.2.2, which servers must take) is its path: the
    // hooks that read what the client sent (the log, the journal, fault rules, the controls'
    // exemptions) read the path as the router does.
    const rest = url.replace(ABSOLUTE_FORM, '')
    url = rest.startsWith('/') ? rest : `/${rest}`
    req.originalUrl = url
  }
  if (!url.startsWith(BETA_ROOT)) return url
  const next = url.charCodeAt(BETA_ROOT.length)
  // The root itself, or a path or query under it; `/v4betas` is another (unknown) path.
  const underRoot = Number.isNaN(next) || next === 0x2f || next === 0x3f
  return underRoot ? `${API_ROOT}${url.slice(BETA_ROOT.length)}` : url
}
