import type { Db } from '../../../db/connect.ts'
import { gravatarId } from './gravatar.ts'
import { type CatalogueScript, PUBLIC_SCRIPTS } from './scripts.catalogue.ts'
import { parseUserDefinedFields } from './user-defined-fields.ts'

/**
 * Makes the public catalogue scripts match the file (by key; the accounts' scripts are untouched).
 * Existing rows are updated in place, keeping the deployment counts they have gathered since, and
 * only missing ones inserted, so their ids never change.
 */
export async function syncPublicScripts(db: Db, scripts: CatalogueScript[] = PUBLIC_SCRIPTS): Promise<void> {
  for (const [ordinal, s] of scripts.entries()) {
    const values = {
      username: s.username,
      user_gravatar_id: gravatarId(s.username),
      label: s.label,
      description: s.description,
      ordinal,
      logo_url: '',
      images: JSON.stringify(s.images),
      is_public: true,
      created: s.created,
      updated: s.updated,
      rev_note: s.rev_note,
      script: s.script,
      user_defined_fields: JSON.stringify(parseUserDefinedFields(s.script)),
    }
    const updated = await db
      .updateTable('scripts')
      .set(values)
      .where('catalogue_key', '=', s.key)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) > 0) continue
    await db
      .insertInto('scripts')
      .values({
        account_id: null,
        catalogue_key: s.key,
        deployments_total: s.deployments_total,
        deployments_active: s.deployments_active,
        ...values,
      })
      .execute()
  }
}
