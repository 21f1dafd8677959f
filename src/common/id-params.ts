import { type TObject, Type } from 'typebox'
import { parseId } from './ids.ts'
import { IdParamSchema } from './schemas.ts'

/**
 * The params of a path whose parts are numeric ids (`/vpcs/:vpcId/subnets/:subnetId`): the schema
 * that validates them, and the named ids a service takes, parsed from the validated params.
 */
export interface IdParams<K extends string> {
  readonly schema: TObject<Record<K, typeof IdParamSchema>>
  /** `{ vpcId, subnetId }` as numbers; an id too large to exist is a 404 (see parseId). */
  ids(params: Readonly<Record<K, string>>): Record<K, number>
}

/** The id params named, in path order (the order the OpenAPI document lists them). */
export function idParams<const K extends string>(...names: K[]): IdParams<K> {
  const properties = Object.fromEntries(names.map((name) => [name, IdParamSchema]))
  return {
    schema: Type.Object(properties as Record<K, typeof IdParamSchema>),
    ids: (params) =>
      Object.fromEntries(names.map((name) => [name, parseId(params[name])])) as Record<K, number>,
  }
}
