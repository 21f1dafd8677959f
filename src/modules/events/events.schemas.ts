import { type Static, Type } from 'typebox'
import { IdParamSchema, Nullable, Page, TimestampSchema } from '../../common/schemas.ts'
import { term } from '../../vocabulary/terms.ts'

/** A number, or an image's id (`compute/debian12`, `private/12`). */
const EntityIdSchema = Type.Unsafe<number | string | null>({
  type: ['integer', 'string', 'null'],
  ...term('imageId'),
})

/** Key order as recorded from the real API (docs/service-facts.md#events). */
export const EventSchema = Type.Object({
  id: Type.Integer(),
  created: TimestampSchema,
  seen: Type.Boolean(),
  read: Type.Boolean(),
  percent_complete: Nullable(Type.Integer()),
  time_remaining: Nullable(Type.Integer()),
  rate: Nullable(Type.String()),
  duration: Nullable(Type.Number()),
  action: Type.String(term('eventAction')),
  username: Nullable(Type.String()),
  entity: Nullable(
    Type.Object({
      label: Nullable(Type.String()),
      id: EntityIdSchema,
      type: Type.String(term('entityType')),
      url: Nullable(Type.String(term('apiUrl'))),
    }),
  ),
  status: Type.String({ enum: ['failed', 'finished', 'notification', 'scheduled', 'started'] }),
  secondary_entity: Nullable(
    Type.Object({
      id: EntityIdSchema,
      type: Type.String(term('entityType')),
      label: Nullable(Type.String()),
      url: Nullable(Type.String(term('apiUrl'))),
    }),
  ),
  message: Nullable(Type.String()),
})
export type Event = Static<typeof EventSchema>

export const EventPageSchema = Page(EventSchema)
export const EventParamsSchema = Type.Object({ eventId: IdParamSchema })
