import { type Static, Type } from 'typebox'
import { Nullable, Page } from '../../../common/schemas.ts'
import { termKeys } from '../../../vocabulary/terms.ts'

/**
 * A VPC IP record: 13 fields in the recorded order (docs/service-facts.md#vpc-ip-records). An
 * interface's own address has `address` set; each of its routed `ip_ranges` is a record with
 * `address_range` set instead.
 */
export const VpcIpSchema = Type.Object(
  {
    address: Nullable(Type.String()),
    address_range: Nullable(Type.String()),
    vpc_id: Type.Integer(),
    subnet_id: Type.Integer(),
    region: Type.String(),
    linode_id: Type.Integer(),
    config_id: Type.Integer(),
    interface_id: Type.Integer(),
    active: Type.Boolean(),
    nat_1_1: Nullable(Type.String()),
    gateway: Type.String(),
    prefix: Type.Integer(),
    subnet_mask: Type.String(),
  },
  termKeys('vpcIp'),
)
export type VpcIp = Static<typeof VpcIpSchema>

export const VpcIpPageSchema = Page(VpcIpSchema)
