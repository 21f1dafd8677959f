import type { GrantEntityType } from '../grants/grant-types.ts'
import type { EventEntity, EventSecondaryEntity, EventStatus, NewEvent } from './event-types.ts'

/** Every event action cloudplane emits, as the document names them. */
export type EventAction =
  | 'account_update'
  | 'compute_boot'
  | 'compute_config_create'
  | 'compute_config_delete'
  | 'compute_config_update'
  | 'compute_create'
  | 'compute_delete'
  | 'compute_reboot'
  | 'compute_shutdown'
  | 'compute_update'
  | 'disk_create'
  | 'disk_imagize'
  | 'domain_create'
  | 'domain_delete'
  | 'domain_record_create'
  | 'domain_record_delete'
  | 'domain_record_update'
  | 'domain_update'
  | 'image_delete'
  | 'image_update'
  | 'image_upload'
  | 'ip_whitelist_enabled'
  | 'nodebalancer_create'
  | 'nodebalancer_delete'
  | 'nodebalancer_update'
  | 'oauth_client_create'
  | 'oauth_client_delete'
  | 'oauth_client_secret_reset'
  | 'oauth_client_update'
  | 'profile_update'
  | 'stackscript_create'
  | 'stackscript_delete'
  | 'stackscript_publicize'
  | 'stackscript_update'
  | 'subnet_create'
  | 'subnet_delete'
  | 'subnet_update'
  | 'tfa_disabled'
  | 'tfa_enabled'
  | 'token_create'
  | 'token_delete'
  | 'token_update'
  | 'user_create'
  | 'user_delete'
  | 'user_ssh_key_add'
  | 'user_ssh_key_delete'
  | 'user_ssh_key_update'
  | 'user_update'
  | 'volume_attach'
  | 'volume_create'
  | 'volume_delete'
  | 'volume_detach'
  | 'volume_resize'
  | 'volume_update'
  | 'vpc_create'
  | 'vpc_delete'
  | 'vpc_update'

/** Who an event is recorded for: the acting user of an account, or the system (`user: null`). */
export interface EventSource {
  accountId: number
  user: { id: number; username: string } | null
}

export interface EventParts {
  entity: EventEntity | null
  secondary?: EventSecondaryEntity | null
  /** The entity whose grant lets a restricted user see the event; null: only the acting user. */
  grant: { type: GrantEntityType; id: number } | null
  /** `notification` unless said. */
  status?: EventStatus
  percentComplete?: number | null
  duration?: number | null
  message?: string | null
}

/** The one way to build an event, for every domain. */
export function buildEvent(
  source: EventSource,
  action: EventAction,
  parts: EventParts,
  created: string,
): NewEvent {
  return {
    accountId: source.accountId,
    user: source.user === null ? null : { id: source.user.id, username: source.user.username },
    action,
    entity: parts.entity,
    secondary: parts.secondary ?? null,
    status: parts.status ?? 'notification',
    percentComplete: parts.percentComplete ?? null,
    duration: parts.duration ?? null,
    message: parts.message ?? null,
    grant: parts.grant,
    created,
  }
}
