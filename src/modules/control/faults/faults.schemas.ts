import { Type } from 'typebox'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()])

export const FaultRuleBodySchema = Type.Object(
  {
    method: Type.Optional(Type.Union(['GET', 'POST', 'PUT', 'DELETE'].map((m) => Type.Literal(m)))),
    path: Type.Optional(
      Type.String({ minLength: 1, maxLength: 500, description: 'a path glob: `/v4/linode/instances*`' }),
    ),
    username: Type.Optional(Type.String({ description: "only requests in this user's account" })),
    token_id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'only requests with this token',
      }),
    ),
    probability: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'default 1' })),
    // The stored count is a 32-bit integer on PostgreSQL.
    times: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'fire at most this many times' }),
    ),
    seed: Type.Optional(Type.String({ maxLength: 200, description: 'makes the random draws repeatable' })),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
    field: Type.Optional(Type.String({ maxLength: 200 })),
    retry_after: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
    latency_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 120_000 })),
    latency_max_ms: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 120_000,
        description: 'with latency_ms: a random delay in the range',
      }),
    ),
    drop: Type.Optional(Type.Boolean({ description: 'close the connection without an answer' })),
    job: Type.Optional(Type.String({ description: 'make background jobs of this kind fail' })),
  },
  { additionalProperties: false },
)

export const FaultRuleSchema = Type.Object({
  id: Type.Integer(),
  created: Type.String(),
  method: Nullable(Type.String()),
  path: Nullable(Type.String()),
  account_id: Nullable(Type.Integer()),
  token_id: Nullable(Type.Integer()),
  probability: Type.Number(),
  times: Nullable(Type.Integer()),
  fired: Type.Integer({ description: 'how often the rule has fired' }),
  seed: Nullable(Type.String()),
  preset: Nullable(Type.String()),
  effect: Type.Object({}, { additionalProperties: true }),
})
export const FaultRuleListSchema = Type.Object({ data: Type.Array(FaultRuleSchema) })

export const FaultIdParamsSchema = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) })
export const PresetParamsSchema = Type.Object({
  name: Type.Union(['offline', 'unstable', 'maintenance'].map((n) => Type.Literal(n))),
})
export const PresetBodySchema = Type.Object(
  {
    share: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'unstable: the share of requests that fail (0.3)' }),
    ),
    seed: Type.Optional(Type.String({ maxLength: 200 })),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
)

export const RegionParamsSchema = Type.Object({ regionId: Type.String({ maxLength: 100 }) })
export const RegionStatusBodySchema = Type.Object(
  { status: Type.Union([Type.Literal('outage'), Type.Literal('ok')]) },
  { additionalProperties: false },
)
