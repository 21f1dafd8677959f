import { buildEvent, type EventSource } from '../events/event-builder.ts'
import type { OAuthClientRow } from './oauth-clients.table.ts'

export type OAuthClientAction =
  | 'oauth_client_create'
  | 'oauth_client_update'
  | 'oauth_client_delete'
  | 'oauth_client_secret_reset'

/**
 * Client ids are hex strings and event entity ids are numbers, so the entity carries the client's
 * label and URL but no id. Only account-level (unrestricted) users manage clients: no grant.
 */
export function oauthClientEvent(
  source: EventSource,
  action: OAuthClientAction,
  client: Pick<OAuthClientRow, 'id' | 'label'>,
  created: string,
) {
  const entity = {
    type: 'oauth_client',
    id: null,
    label: client.label,
    url: `/v4/account/oauth-clients/${client.id}`,
  }
  return buildEvent(source, action, { entity, grant: null }, created)
}
