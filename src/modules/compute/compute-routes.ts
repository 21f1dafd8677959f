import { parseId } from '../../common/ids.ts'
import { categoryAuth } from '../../common/route-schemas.ts'
import type { ConfigIds } from './configs/config-access.ts'
import type { DiskIds } from './disks/disks.service.ts'
import type { InstanceIds } from './instances/instance-access.ts'
import type { InterfaceIds } from './interfaces/interfaces.service.ts'

/** What the instance routes and those of their profiles, interfaces and disks share. */
export const tags = ['Compute instances']
export const { read, write } = categoryAuth('computes')

/** The named ids of the compute paths, parsed from the route's params (an id too large is a 404). */
export const instanceIds = (params: { instanceId: string }): InstanceIds => ({
  instanceId: parseId(params.instanceId),
})

export const configIds = (params: { instanceId: string; configId: string }): ConfigIds => ({
  ...instanceIds(params),
  configId: parseId(params.configId),
})

export const interfaceIds = (params: {
  instanceId: string
  configId: string
  interfaceId: string
}): InterfaceIds => ({ ...configIds(params), interfaceId: parseId(params.interfaceId) })

export const diskIds = (params: { instanceId: string; diskId: string }): DiskIds => ({
  ...instanceIds(params),
  diskId: parseId(params.diskId),
})
