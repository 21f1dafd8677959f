import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Page, TimestampSchema } from '../../../common/schemas.ts'

export const DISK_FILESYSTEMS = ['raw', 'swap', 'ext3', 'ext4', 'initrd'] as const

/** The disk object at 4.174.0 (docs/service-facts.md#disks), in the recorded key order. */
export const DiskSchema = Type.Object({
  id: Type.Integer(),
  status: Type.String({ enum: ['ready', 'not ready', 'deleting'] }),
  label: Type.String(),
  created: TimestampSchema,
  updated: TimestampSchema,
  filesystem: Type.String({ enum: [...DISK_FILESYSTEMS] }),
  size: Type.Integer(),
})
export type Disk = Static<typeof DiskSchema>

export const DiskPageSchema = Page(DiskSchema)

export const DiskParams = idParams('instanceId', 'diskId')
