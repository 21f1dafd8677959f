import { type Static, Type } from 'typebox'
import { IdParamSchema, Nullable, Page, TimestampSchema } from '../../common/schemas.ts'

const EntityIdSchema = Type.Unsafe<number | string | null>({ type: ['integer', 'string', 'null'] })

/** Key order as recorded from the real API (api-facts 9.1). */
export const EventSchema = Type.Object({
  id: Type.Integer(),
  created: TimestampSchema,
  seen: Type.Boolean(),
  read: Type.Boolean(),
  percent_complete: Nullable(Type.Integer()),
  time_remaining: Nullable(Type.String()),
  rate: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  action: Type.String(),
  username: Nullable(Type.String()),
  entity: Nullable(
    Type.Object({
      label: Nullable(Type.String()),
      id: EntityIdSchema,
      type: Type.String(),
      url: Nullable(Type.String()),
    }),
  ),
  status: Type.String({ enum: ['failed', 'finished', 'notification', 'scheduled', 'started'] }),
  secondary_entity: Nullable(
    Type.Object({
      id: EntityIdSchema,
      type: Type.String(),
      label: Nullable(Type.String()),
      url: Nullable(Type.String()),
    }),
  ),
  message: Nullable(Type.String()),
})
export type Event = Static<typeof EventSchema>

export const EventPageSchema = Page(EventSchema)
export const EventParamsSchema = Type.Object({ eventId: IdParamSchema })
