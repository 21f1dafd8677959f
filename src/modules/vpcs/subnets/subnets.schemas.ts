import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Nullable, Page, TimestampSchema } from '../../../common/schemas.ts'
import { laterKeys } from '../../../vocabulary/terms.ts'

const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'

/** The shape of an IPv4 CIDR; the range rules (canonical, private, overlap) are in the service. */
export const Ipv4CidrSchema = Type.String({
  maxLength: 18,
  pattern: `^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?[0-9])$`,
  'x-reason': 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24',
})

/**
 * A VPC or subnet label (docs/service-facts.md#vpc-and-subnet-labels): 1-64 ASCII letters, digits
 * and dashes, never two dashes in a row. The first wording is the one the real API answered with.
 */
export const NetworkLabelSchema = Type.String({
  minLength: 1,
  maxLength: 64,
  allOf: [
    { pattern: '^[A-Za-z0-9-]*$', 'x-reason': 'Label must include only ASCII letters, numbers, and dashes' },
    { not: { type: 'string', pattern: '--' }, 'x-reason': 'Label must not contain two dashes in a row' },
  ],
})

/** `config_id`, the interface's profile, is a later field: the document's naming drops it. */
export const SubnetInterfaceSchema = Type.Object(
  { id: Type.Integer(), active: Type.Boolean(), config_id: Type.Integer() },
  laterKeys('config_id'),
)

/** A load balancer on the subnet: none here (a later field, as the subnet's list of them is). */
const SubnetBalancerSchema = Type.Object({ id: Type.Integer(), ipv4_range: Type.String() })

/** An instance with a config interface on the subnet; the field keeps its original name `linodes`. */
export const SubnetComputeSchema = Type.Object({
  id: Type.Integer(),
  interfaces: Type.Array(SubnetInterfaceSchema),
})

export const SubnetSchema = Type.Object(
  {
    id: Type.Integer(),
    label: Type.String(),
    ipv4: Type.String(),
    linodes: Type.Array(SubnetComputeSchema),
    nodebalancers: Type.Array(SubnetBalancerSchema),
    created: TimestampSchema,
    updated: Nullable(TimestampSchema),
  },
  laterKeys('nodebalancers'),
)
export type Subnet = Static<typeof SubnetSchema>
export type SubnetCompute = Static<typeof SubnetComputeSchema>

export const SubnetPageSchema = Page(SubnetSchema)

export const CreateSubnetBodySchema = Type.Object({
  label: NetworkLabelSchema,
  ipv4: Ipv4CidrSchema,
})
export type CreateSubnetBody = Static<typeof CreateSubnetBodySchema>

/** Only the label can change (API rule 4). */
export const UpdateSubnetBodySchema = Type.Object({ label: Type.Optional(NetworkLabelSchema) })
export type UpdateSubnetBody = Static<typeof UpdateSubnetBodySchema>

export const SubnetParams = idParams('vpcId', 'subnetId')
