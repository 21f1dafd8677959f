import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { IdSchema, Nullable } from '../../../common/schemas.ts'

export const INTERFACE_PURPOSES = ['public', 'vlan', 'vpc'] as const
export type InterfacePurpose = (typeof INTERFACE_PURPOSES)[number]

/**
 * A config interface in the recorded key order (docs/service-facts.md#config-interfaces). `ipv4`
 * and `ip_ranges` belong to `vpc` interfaces; other purposes show null there
 * (docs/decisions.md#non-vpc-interfaces).
 */
export const InterfaceSchema = Type.Object({
  id: Type.Integer(),
  purpose: Type.String({ enum: [...INTERFACE_PURPOSES] }),
  primary: Type.Boolean(),
  active: Type.Boolean(),
  ipam_address: Nullable(Type.String()),
  label: Nullable(Type.String()),
  vpc_id: Nullable(Type.Integer()),
  subnet_id: Nullable(Type.Integer()),
  ipv4: Nullable(Type.Object({ vpc: Nullable(Type.String()), nat_1_1: Nullable(Type.String()) })),
  ip_ranges: Nullable(Type.Array(Type.String())),
})
export type Interface = Static<typeof InterfaceSchema>

/** Ranges routed to one interface: bounded, so that a request's size cannot grow its validation's cost. */
const MAX_IP_RANGES = 100

const Ipv4InputSchema = Type.Object({
  vpc: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  nat_1_1: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
})

/** One interface as sent to instance create, config create/update and interface add. */
export const InterfaceInputSchema = Type.Object({
  purpose: Type.String({ enum: [...INTERFACE_PURPOSES] }),
  label: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  ipam_address: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  primary: Type.Optional(Type.Boolean()),
  subnet_id: Type.Optional(Nullable(IdSchema)),
  ipv4: Type.Optional(Nullable(Ipv4InputSchema)),
  ip_ranges: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_IP_RANGES }))),
})
export type InterfaceInput = Static<typeof InterfaceInputSchema>

/**
 * Only `primary`, `ipv4` and `ip_ranges` can change; purpose and subnet are fixed
 * (docs/service-facts.md#config-interfaces).
 */
export const UpdateInterfaceBodySchema = Type.Object({
  primary: Type.Optional(Type.Boolean()),
  ipv4: Type.Optional(Nullable(Ipv4InputSchema)),
  ip_ranges: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_IP_RANGES }))),
})
export type UpdateInterfaceBody = Static<typeof UpdateInterfaceBodySchema>

/** A profile's interfaces in the order wanted, eth0 first: each of them once. */
export const OrderInterfacesBodySchema = Type.Object({
  ids: Type.Array(IdSchema, { minItems: 1, maxItems: 3 }),
})
export type OrderInterfacesBody = Static<typeof OrderInterfacesBodySchema>

export const ConfigParams = idParams('instanceId', 'configId')

export const InterfaceParams = idParams('instanceId', 'configId', 'interfaceId')
