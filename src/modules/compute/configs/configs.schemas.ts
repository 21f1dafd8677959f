import { type Static, Type } from 'typebox'
import { IdSchema, Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import { term } from '../../../vocabulary/terms.ts'
import { InterfaceInputSchema, InterfaceSchema } from '../interfaces/interfaces.schemas.ts'

export const DEVICE_SLOTS = ['sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh'] as const
export type DeviceSlot = (typeof DEVICE_SLOTS)[number]

const DeviceSchema = Nullable(
  Type.Object({ disk_id: Nullable(Type.Integer()), volume_id: Nullable(Type.Integer()) }),
)
export type Device = Static<typeof DeviceSchema>

const HelpersSchema = Type.Object({
  updatedb_disabled: Type.Boolean(),
  distro: Type.Boolean(),
  modules_dep: Type.Boolean(),
  network: Type.Boolean(),
  devtmpfs_automount: Type.Boolean(),
})
export type Helpers = Static<typeof HelpersSchema>

/** A config profile in the recorded key order. */
export const ConfigSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  helpers: HelpersSchema,
  kernel: Type.String(term('imageId')),
  comments: Type.String(),
  memory_limit: Type.Integer(),
  created: TimestampSchema,
  updated: TimestampSchema,
  root_device: Type.String(),
  devices: Type.Object({
    sda: DeviceSchema,
    sdb: DeviceSchema,
    sdc: DeviceSchema,
    sdd: DeviceSchema,
    sde: DeviceSchema,
    sdf: DeviceSchema,
    sdg: DeviceSchema,
    sdh: DeviceSchema,
  }),
  initrd: Nullable(Type.Integer()),
  run_level: Type.String({ enum: ['default', 'single', 'binbash'] }),
  virt_mode: Type.String({ enum: ['paravirt', 'fullvirt'] }),
  interfaces: Type.Array(InterfaceSchema),
})
export type Config = Static<typeof ConfigSchema>

export const ConfigPageSchema = Page(ConfigSchema)

const DeviceInputSchema = Type.Optional(
  Nullable(
    Type.Object({
      disk_id: Type.Optional(Nullable(IdSchema)),
      volume_id: Type.Optional(Nullable(IdSchema)),
    }),
  ),
)

export const DevicesInputSchema = Type.Object({
  sda: DeviceInputSchema,
  sdb: DeviceInputSchema,
  sdc: DeviceInputSchema,
  sdd: DeviceInputSchema,
  sde: DeviceInputSchema,
  sdf: DeviceInputSchema,
  sdg: DeviceInputSchema,
  sdh: DeviceInputSchema,
})
export type DevicesInput = Static<typeof DevicesInputSchema>

const ConfigFields = {
  label: Type.String({ minLength: 1, maxLength: 48 }),
  devices: DevicesInputSchema,
  kernel: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^compute/[A-Za-z0-9._+-]+$',
      'x-reason': 'Must be a kernel id such as compute/latest-64bit or compute/grub2',
      ...term('imageId'),
    }),
  ),
  comments: Type.Optional(Type.String({ maxLength: 2048 })),
  memory_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  run_level: Type.Optional(Type.String({ enum: ['default', 'single', 'binbash'] })),
  virt_mode: Type.Optional(Type.String({ enum: ['paravirt', 'fullvirt'] })),
  helpers: Type.Optional(Type.Partial(HelpersSchema)),
  root_device: Type.Optional(
    Type.String({
      maxLength: 32,
      pattern: '^/dev/[a-z]+[0-9]*$',
      'x-reason': 'Must be a device path such as /dev/sda',
    }),
  ),
  initrd: Type.Optional(Nullable(IdSchema)),
  interfaces: Type.Optional(Nullable(Type.Array(InterfaceInputSchema, { maxItems: 3 }))),
}

export const CreateConfigBodySchema = Type.Object(ConfigFields)
export type CreateConfigBody = Static<typeof CreateConfigBodySchema>

export const UpdateConfigBodySchema = Type.Partial(Type.Object(ConfigFields))
export type UpdateConfigBody = Static<typeof UpdateConfigBodySchema>
