import { Type } from 'typebox'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const JournalQuerySchema = Type.Object({
  method: Type.Optional(Type.Union(['GET', 'POST', 'PUT', 'DELETE'].map((m) => Type.Literal(m)))),
  path: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'a path prefix' })),
  status: Type.Optional(Type.String({ pattern: '^[1-5][0-9]{2}$' })),
  username: Type.Optional(Type.String({ description: "requests in this user's account" })),
  since: Type.Optional(Type.String({ description: 'a date-time (virtual clock), inclusive' })),
  until: Type.Optional(Type.String({ description: 'a date-time (virtual clock), exclusive' })),
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$' })),
  page_size: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: '1 to 500 (100)' })),
})

export const JournalEntrySchema = Type.Object({
  id: Type.Integer(),
  time: Type.String({ description: 'virtual clock, milliseconds' }),
  process: Type.String(),
  method: Type.String(),
  path: Type.String(),
  query: Type.String(),
  status: Nullable(Type.Integer({ description: 'null when no answer was sent' })),
  duration_ms: Type.Number(),
  account_id: Nullable(Type.Integer()),
  user_id: Nullable(Type.Integer()),
  token_id: Nullable(Type.Integer()),
  request_body: Type.Unknown(),
  response_body: Type.Unknown(),
  fault_rule: Nullable(Type.Integer()),
  outcome: Nullable(
    Type.Union([Type.Literal('dropped'), Type.Literal('client_closed')], {
      description:
        'null for an answer; dropped: a fault rule closed the connection; client_closed: the client went away first',
    }),
  ),
})

export const JournalPageSchema = Type.Object({
  data: Type.Array(JournalEntrySchema),
  page: Type.Integer(),
  pages: Type.Integer(),
  results: Type.Integer(),
  dropped: Type.Integer({
    description: 'requests not recorded since the last clear: a process had more waiting than it holds',
  }),
})

export const JournalIdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) })
