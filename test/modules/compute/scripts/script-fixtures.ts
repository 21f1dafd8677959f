import assert from 'node:assert/strict'
import type { Script } from '../../../../src/modules/compute/scripts/scripts.schemas.ts'
import type { TestApp } from '../../../helpers/app.ts'
import type { TestUser } from '../../../helpers/factories.ts'
import { wireImageId, wirePath } from '../../../helpers/naming.ts'

export const SCRIPTS = wirePath('/v4/compute/scripts')

/** A script with one required field, one with choices and one optional field. */
export const SCRIPT_WITH_FIELDS = [
  '#!/bin/bash',
  '# <UDF name="db_password" label="Database password" example="s3cret" />',
  '# <UDF name="size" label="Cache size" oneof="small,large" default="small" />',
  '# <UDF name="extras" label="Extra packages" manyof="git,curl,vim" default="" />',
  'echo "$DB_PASSWORD"',
].join('\n')

/** A script of the owner's account made through the API (private, Debian 12 only, unless said). */
export async function createScript(
  api: TestApp,
  owner: Pick<TestUser, 'headers'>,
  body: Record<string, unknown> = {},
): Promise<Script> {
  const res = await api.request({
    method: 'POST',
    url: SCRIPTS,
    headers: owner.headers,
    payload: {
      label: 'set up',
      script: SCRIPT_WITH_FIELDS,
      images: [wireImageId('compute/debian12')],
      ...body,
    },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
