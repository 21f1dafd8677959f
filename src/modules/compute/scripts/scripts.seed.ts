import type { Db } from '../../../db/connect.ts'
import { syncRowsByKey } from '../../../db/rows.ts'
import { gravatarId } from './gravatar.ts'
import { type CatalogueScript, PUBLIC_SCRIPTS } from './scripts.catalogue.ts'
import { parseUserDefinedFields } from './user-defined-fields.ts'

/**
 * Makes the public catalogue scripts match the file (by key; the accounts' scripts are untouched).
 * Scripts already stored are written again under the ids they have, keeping the deployment counts
 * they have gathered since, and only missing ones inserted, so their ids never change.
 */
export async function syncPublicScripts(db: Db, scripts: CatalogueScript[] = PUBLIC_SCRIPTS): Promise<void> {
  const rows = scripts.map((s, ordinal) => ({
    account_id: null,
    catalogue_key: s.key,
    deployments_total: s.deployments_total,
    deployments_active: s.deployments_active,
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
  }))
  await syncRowsByKey(db, 'scripts', rows, 'catalogue_key', [
    'account_id',
    'deployments_total',
    'deployments_active',
  ])
}
