import { type Static, Type } from 'typebox'
import { idParams } from '../../common/id-params.ts'
import { Nullable, Page, TagsSchema, TimestampSchema } from '../../common/schemas.ts'

/** The load balancer in the key order the real API returns it at 4.174.0. */
export const LoadBalancerSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  region: Type.String(),
  hostname: Type.String(),
  ipv4: Type.String(),
  ipv6: Nullable(Type.String()),
  created: TimestampSchema,
  updated: TimestampSchema,
  client_conn_throttle: Type.Integer(),
  tags: Type.Array(Type.String()),
  /** MB this month; null until traffic has been counted. */
  transfer: Type.Object({
    in: Nullable(Type.Number()),
    out: Nullable(Type.Number()),
    total: Nullable(Type.Number()),
  }),
})
export type LoadBalancer = Static<typeof LoadBalancerSchema>

export const LoadBalancerPageSchema = Page(LoadBalancerSchema)

/** 3-32 ASCII letters, digits, dashes and underscores. */
const LabelSchema = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[a-zA-Z0-9_-]+$',
  'x-reason': "Label can't contain special characters or spaces.",
})

/** New connections per second a client may open; 0 turns throttling off. */
const ThrottleSchema = Type.Integer({ minimum: 0, maximum: 20 })

export const CreateLoadBalancerBodySchema = Type.Object({
  region: Type.String({ minLength: 1, maxLength: 64 }),
  label: Type.Optional(LabelSchema),
  client_conn_throttle: Type.Optional(ThrottleSchema),
  tags: Type.Optional(Nullable(TagsSchema)),
})
export type CreateLoadBalancerBody = Static<typeof CreateLoadBalancerBodySchema>

/** Label, throttle and tags can change; the region cannot. */
export const UpdateLoadBalancerBodySchema = Type.Object({
  label: Type.Optional(LabelSchema),
  client_conn_throttle: Type.Optional(ThrottleSchema),
  tags: Type.Optional(TagsSchema),
})
export type UpdateLoadBalancerBody = Static<typeof UpdateLoadBalancerBodySchema>

export const LoadBalancerParams = idParams('loadbalancerId')
