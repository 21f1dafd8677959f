import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../db/dialects/dialect.ts'
import { subnetLinodesJson } from './subnets/subnet-attachments.repository.ts'

/**
 * A VPC's wire JSON (VpcSchema, keys in the API's order), subnets and their `linodes` included,
 * rendered by the database from the `vpcs` row of the query it is selected in. The VPC reads are
 * the hot paths of the area: one statement and one string per VPC instead of rows, mapping and
 * serialization (the events list does the same, see events/event-json.ts). The fields of a VPC
 * and of a subnet are stored as JSON text when the row is written (`json_head`, `json_tail`, by
 * JSON.stringify); the query only adds ids and the nested arrays. A test holds the result equal
 * to the object the API serializes.
 */

interface VpcFields {
  label: string
  description: string
  region: string
  created: string
  updated: string | null
}

interface SubnetFields {
  label: string
  ipv4: string
  created: string
  updated: string | null
}

export interface JsonParts {
  json_head: string
  json_tail: string
}

/** `,"label":…,"description":…,"region":…` and `,"created":…,"updated":…}` of a VPC. */
export function vpcJsonParts(v: VpcFields): JsonParts {
  return {
    json_head: `,"label":${JSON.stringify(v.label)},"description":${JSON.stringify(v.description)},"region":${JSON.stringify(v.region)}`,
    json_tail: `,"created":${JSON.stringify(v.created)},"updated":${JSON.stringify(v.updated)}}`,
  }
}

/** `,"label":…,"ipv4":…` and `,"created":…,"updated":…}` of a subnet. */
export function subnetJsonParts(s: SubnetFields): JsonParts {
  return {
    json_head: `,"label":${JSON.stringify(s.label)},"ipv4":${JSON.stringify(s.ipv4)}`,
    json_tail: `,"created":${JSON.stringify(s.created)},"updated":${JSON.stringify(s.updated)}}`,
  }
}

/**
 * A VPC's wire JSON, for the `vpcs` row of the query it is selected in; with `laterFields` (the
 * real naming), each subnet interface's `config_id` and each subnet's `nodebalancers` too
 * (docs/decisions.md, "Fields of later versions"), so the text goes out as it is either way.
 */
export function vpcJson(dialect: SqlDialect, laterFields: boolean): RawBuilder<string> {
  return RENDERED[dialect === 'postgres' ? 'postgres' : 'sqlite'][laterFields ? 1 : 0]
}

export interface JsonSyntax {
  /** The texts of a group joined by commas, in the given order; null for an empty group. */
  join(text: string, order: string): string
  /** `[…]` of `text` for each row of `from`, in the given order. */
  array(text: string, order: string, from: string): string
}

const sqlite: JsonSyntax = {
  join: (text, order) => `group_concat(${text}, ',' order by ${order})`,
  // Concatenated in the order of an ordered subquery: SQLite keeps a subquery's ORDER BY when
  // the outer query aggregates with group_concat (select.c, "Beware of these cases"), and an
  // index satisfies it here, where an ordered aggregate sorts into a temporary b-tree per array
  // (15% of the list page's statement).
  array: (text, order, from) =>
    `'[' || coalesce((select group_concat(e, ',') from (select ${text} as e from ${from} order by ${order})), '') || ']'`,
}

const postgres: JsonSyntax = {
  join: (text, order) => `string_agg(${text}, ',' order by ${order})`,
  array: (text, order, from) =>
    `'[' || coalesce((select ${postgres.join(text, order)} from ${from}), '') || ']'`,
}

const subnet = (j: JsonSyntax, laterFields: boolean) =>
  `'{"id":' || s.id || s.json_head || ',"linodes":' || ${subnetLinodesJson(j, laterFields)} || ${laterFields ? `',"nodebalancers":[]' || ` : ''}s.json_tail`

const vpc = (j: JsonSyntax, laterFields: boolean) =>
  `'{"id":' || vpcs.id || vpcs.json_head || ',"subnets":' || ${j.array(subnet(j, laterFields), 's.id', 'subnets as s where s.vpc_id = vpcs.id')} || vpcs.json_tail`

const rendered = (j: JsonSyntax) =>
  [sql<string>`${sql.raw(vpc(j, false))}`, sql<string>`${sql.raw(vpc(j, true))}`] as const

const RENDERED = { sqlite: rendered(sqlite), postgres: rendered(postgres) }
