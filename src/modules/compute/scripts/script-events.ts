import { buildEvent, type EventSource } from '../../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../../grants/granted-entity.ts'
import type { ScriptRow } from './scripts.table.ts'

type ScriptRef = Pick<ScriptRow, 'id' | 'label'>

export const scriptEntity = (script: ScriptRef) => grantedEntity('script', '/v4/compute/scripts', script)

/** `stackscript_*` events name the script; its grant decides which restricted users see them. */
export function scriptEvent(
  source: EventSource,
  action: 'stackscript_create' | 'stackscript_update' | 'stackscript_publicize' | 'stackscript_delete',
  script: ScriptRef,
  created: string,
) {
  return buildEvent(source, action, aboutGrantedEntity(scriptEntity(script)), created)
}
