import { Type } from 'typebox'
import { TimestampSchema } from '../../common/schemas.ts'

export const CONTROL_TAG = {
  name: 'Emulator control',
  description:
    "cloudplane's own controls for tests (reset, snapshots, seeding, the clock), under `/_cloudplane`, with the admin key in `X-Cloudplane-Admin-Key`. Not part of the cloud API; off by default on PostgreSQL.",
}

export const ClockSchema = Type.Object({
  virtual: TimestampSchema,
  real: TimestampSchema,
  offset_seconds: Type.Integer(),
  real_time: Type.Boolean(),
})

export const AdvanceBodySchema = Type.Object(
  { by: Type.String({ description: 'a duration: "24h", "10m", "1d12h", "90s"' }) },
  { additionalProperties: false },
)
export const SetBodySchema = Type.Object(
  { at: Type.String({ description: 'a date-time, e.g. 2030-01-01T00:00:00' }) },
  { additionalProperties: false },
)
export const SnapshotSchema = Type.Object({
  name: Type.String(),
  created: TimestampSchema,
  size: Type.Integer({ description: 'bytes, compressed' }),
})
export const SnapshotListSchema = Type.Object({ data: Type.Array(SnapshotSchema) })
export const SnapshotNameBodySchema = Type.Object({ name: Type.String() }, { additionalProperties: false })
export const SnapshotParamsSchema = Type.Object({ name: Type.String() })
export const UsernameParamsSchema = Type.Object({ username: Type.String() })
export const TfaCodeSchema = Type.Object({
  pending: Type.Union([Type.String(), Type.Null()], {
    description: 'current code of a secret awaiting confirmation',
  }),
  enabled: Type.Union([Type.String(), Type.Null()], { description: 'current code of the secret in force' }),
})
export const ControlErrorSchema = Type.Object({
  errors: Type.Array(Type.Object({ reason: Type.String(), field: Type.Optional(Type.String()) })),
})
