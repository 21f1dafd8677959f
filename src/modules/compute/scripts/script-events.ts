import { buildEvent, type EventSource } from '../../events/event-builder.ts'
import type { ScriptRow } from './scripts.table.ts'

type ScriptRef = Pick<ScriptRow, 'id' | 'label'>

export const scriptEntity = (script: ScriptRef) => ({
  type: 'script',
  id: script.id,
  label: script.label,
  url: `/v4/compute/scripts/${script.id}`,
})

/** `stackscript_*` events name the script; its grant decides which restricted users see them. */
export function scriptEvent(
  source: EventSource,
  action: 'stackscript_create' | 'stackscript_update' | 'stackscript_publicize' | 'stackscript_delete',
  script: ScriptRef,
  created: string,
) {
  return buildEvent(
    source,
    action,
    { entity: scriptEntity(script), grant: { type: 'script', id: script.id } },
    created,
  )
}
