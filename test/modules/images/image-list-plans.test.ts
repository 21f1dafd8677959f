import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CompiledQuery } from 'kysely'
import { fill } from '../../../src/db/prepared.ts'
import { imageListStatements } from '../../../src/modules/images/images.repository.ts'
import { useTestApp } from '../../helpers/app.ts'

const onSqlite = process.env.CLOUDPLANE_TEST_DIALECT !== 'postgres'

/**
 * The image list's cost must not grow with the images of other accounts: a page reads the
 * account's private images from an index of the account, in the list's order, and stops after one
 * page; it never walks the table's private images by position. Checked on SQLite's plans, which do
 * not depend on table statistics.
 */
describe('images: query plans that stay flat', { skip: !onSqlite && 'SQLite plans' }, () => {
  const api = useTestApp()

  const plan = async (compiled: CompiledQuery) => {
    const explained = await api.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    )
    return explained.rows.map((r) => r.detail).join(' | ')
  }

  for (const scope of ['account', 'restricted'] as const) {
    for (const filter of [null, JSON.stringify({ label: { '+contains': 'x' } })]) {
      it(`a page for ${scope === 'account' ? 'an account' : 'a restricted user'}, filter ${filter}`, async () => {
        const list = imageListStatements(api.db, { filter, scope, laterFields: false })
        const page = await plan(fill(list.page, { account: 1, user: 2, limit: 25, offset: 0 }))
        assert.match(page, /images_account_order \(account_id=\? AND is_public=\?\)/, page)
        assert.doesNotMatch(page, /SCAN images/, page)
        assert.doesNotMatch(page, /images_public_position \(is_public=\?\)[^|]*\| RIGHT/, page)
        assert.doesNotMatch(page, /TEMP B-TREE FOR ORDER BY \| RIGHT/, page)
      })
    }
  }
})
