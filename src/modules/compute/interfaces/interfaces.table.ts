import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface InterfaceTable {
  id: Generated<number>
  config_id: number
  instance_id: number
  /** eth0..eth2 order within the profile. */
  position: number
  purpose: string
  label: string | null
  ipam_address: string | null
  /** The wire field `primary` (a reserved word in SQL). */
  is_primary: boolean
  /** True while the instance runs from this interface's profile. */
  active: boolean
  vpc_id: number | null
  subnet_id: number | null
  ipv4_vpc: string | null
  /** The public address NATed 1:1 to the VPC address, or NULL. */
  nat_1_1: string | null
}

export type InterfaceRow = Selectable<InterfaceTable>
export type NewInterfaceRow = Insertable<InterfaceTable>
export type InterfaceRowUpdate = Updateable<InterfaceTable>

/** `ip_ranges` of a VPC interface, one row per routed range. */
export interface InterfaceRangeTable {
  interface_id: number
  position: number
  range: string
}

export type InterfaceRangeRow = Selectable<InterfaceRangeTable>
