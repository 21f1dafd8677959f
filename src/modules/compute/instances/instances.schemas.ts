import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { IdSchema, Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import { laterKeys, term } from '../../../vocabulary/terms.ts'
import { InterfaceInputSchema } from '../interfaces/interfaces.schemas.ts'

export const INSTANCE_STATUSES = [
  'running',
  'offline',
  'booting',
  'rebooting',
  'shutting_down',
  'provisioning',
  'deleting',
  'migrating',
  'rebuilding',
  'cloning',
  'restoring',
  'stopped',
] as const

const AlertsSchema = Type.Object({
  cpu: Type.Integer(),
  network_in: Type.Integer(),
  network_out: Type.Integer(),
  transfer_quota: Type.Integer(),
  io: Type.Integer(),
})
export type Alerts = Static<typeof AlertsSchema>

/** Fields of later versions, sent under the real service's naming only (docs/decisions.md). */
const LATER_FIELDS = [
  'site_type',
  'placement_group',
  'disk_encryption',
  'lke_cluster_id',
  'capabilities',
  'interface_generation',
  'maintenance_policy',
  'locks',
]

/**
 * The instance object in the key order the real API returns it at 4.174.0; the fields of later
 * versions where no recording shows them: `site_type` after its region, the rest last.
 */
export const InstanceSchema = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    group: Type.String(),
    status: Type.String({ enum: [...INSTANCE_STATUSES] }),
    created: TimestampSchema,
    updated: TimestampSchema,
    type: Nullable(Type.String()),
    ipv4: Type.Array(Type.String()),
    ipv6: Nullable(Type.String()),
    image: Nullable(Type.String(term('imageId'))),
    region: Type.String(),
    site_type: Type.String({ description: "the region's" }),
    specs: Type.Object(
      {
        disk: Type.Integer(),
        memory: Type.Integer(),
        vcpus: Type.Integer(),
        gpus: Type.Integer(),
        transfer: Type.Integer(),
        accelerated_devices: Type.Integer(),
      },
      laterKeys('accelerated_devices'),
    ),
    alerts: AlertsSchema,
    backups: Type.Object({
      enabled: Type.Boolean(),
      available: Type.Boolean(),
      schedule: Type.Object({ day: Nullable(Type.String()), window: Nullable(Type.String()) }),
      last_successful: Nullable(TimestampSchema),
    }),
    hypervisor: Type.String(),
    watchdog_enabled: Type.Boolean(),
    tags: Type.Array(Type.String()),
    host_uuid: Type.String(),
    has_user_data: Type.Boolean(),
    placement_group: Type.Null({ description: 'no placement groups here' }),
    disk_encryption: Type.String({ enum: ['enabled', 'disabled'] }),
    lke_cluster_id: Type.Null({ description: 'no Kubernetes clusters here' }),
    capabilities: Type.Array(Type.String()),
    interface_generation: Type.String({ enum: ['legacy_config', 'linode'] }),
    maintenance_policy: Nullable(Type.String()),
    locks: Type.Array(Type.String()),
  },
  laterKeys(...LATER_FIELDS),
)
export type Instance = Static<typeof InstanceSchema>

export const InstancePageSchema = Page(InstanceSchema)

/**
 * Instance labels: 3-64 characters, letters, digits, dashes, underscores and periods, starting and
 * ending with a letter or digit, without two of `-_.` in a row.
 */
export const InstanceLabelSchema = Type.String({
  minLength: 3,
  maxLength: 64,
  pattern: '^(?!.*[-_.]{2})[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?$',
  'x-reason':
    'Label must begin and end with a letter or number, and may only contain letters, numbers, dashes, underscores, and periods, without two of them in a row',
})

const TagSchema = Type.String({ minLength: 3, maxLength: 50 })
/** Tags on one instance: a bound so that a request's size cannot grow its validation's cost. */
const MAX_TAGS = 100

export const CreateInstanceBodySchema = Type.Object({
  region: Type.String({ minLength: 1, maxLength: 64 }),
  type: Type.String({ minLength: 1, maxLength: 64 }),
  label: Type.Optional(InstanceLabelSchema),
  image: Type.Optional(Nullable(Type.String({ maxLength: 64, ...term('imageId') }))),
  root_pass: Type.Optional(Type.String({ minLength: 7, maxLength: 128 })),
  booted: Type.Optional(Type.Boolean()),
  swap_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1048576 })),
  group: Type.Optional(Type.String({ maxLength: 50 })),
  tags: Type.Optional(Type.Array(TagSchema, { maxItems: MAX_TAGS })),
  interfaces: Type.Optional(Nullable(Type.Array(InterfaceInputSchema, { maxItems: 3 }))),
  /** A script to deploy with the image, and the values of its user-defined fields. */
  stackscript_id: Type.Optional(Nullable(IdSchema)),
  stackscript_data: Type.Optional(
    Nullable(Type.Record(Type.String(), Type.String({ maxLength: 65_535 }), { maxProperties: 100 })),
  ),
})
export type CreateInstanceBody = Static<typeof CreateInstanceBodySchema>

export const UpdateInstanceBodySchema = Type.Object({
  label: Type.Optional(InstanceLabelSchema),
  group: Type.Optional(Type.String({ maxLength: 50 })),
  tags: Type.Optional(Type.Array(TagSchema, { maxItems: MAX_TAGS })),
  watchdog_enabled: Type.Optional(Type.Boolean()),
  alerts: Type.Optional(
    Type.Object({
      cpu: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
      network_in: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
      network_out: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
      transfer_quota: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
      io: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
    }),
  ),
})
export type UpdateInstanceBody = Static<typeof UpdateInstanceBodySchema>

/** Boot and reboot may name the profile to boot. */
export const PowerBodySchema = Type.Object({ config_id: Type.Optional(Nullable(IdSchema)) })
export type PowerBody = Static<typeof PowerBodySchema>

export const InstanceParams = idParams('instanceId')
