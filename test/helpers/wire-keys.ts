/** The wire order of each resource's keys, shared by the module tests and the compat suite. */

/** A private image's keys, in the order the real service sends them. */
export const PRIVATE_IMAGE_KEYS = [
  'id',
  'label',
  'description',
  'created',
  'updated',
  'size',
  'created_by',
  'type',
  'is_public',
  'deprecated',
  'vendor',
  'expiry',
  'eol',
  'status',
  'capabilities',
]

/** A public image's keys, in the order the real service sends them (linodego ExampleListImages_all). */
export const PUBLIC_IMAGE_KEYS = [
  'id',
  'label',
  'deprecated',
  'size',
  'created',
  'updated',
  'description',
  'created_by',
  'type',
  'is_public',
  'vendor',
  'expiry',
  'eol',
  'status',
  'capabilities',
]

/**
 * An image's keys under the real naming, with the fields of later versions: `tags` after `type`
 * (linodego TestImage_CreateUpload, 2024-06), the later two last.
 */
export const LATER_PRIVATE_IMAGE_KEYS = [
  ...PRIVATE_IMAGE_KEYS.slice(0, PRIVATE_IMAGE_KEYS.indexOf('type') + 1),
  'tags',
  ...PRIVATE_IMAGE_KEYS.slice(PRIVATE_IMAGE_KEYS.indexOf('type') + 1),
  'total_size',
  'regions',
]
export const LATER_PUBLIC_IMAGE_KEYS = [...PUBLIC_IMAGE_KEYS, 'tags', 'total_size', 'regions']

/** An instance's keys, in the order the real service sends them. */
export const INSTANCE_KEYS = [
  'id',
  'label',
  'group',
  'status',
  'created',
  'updated',
  'type',
  'ipv4',
  'ipv6',
  'image',
  'region',
  'specs',
  'alerts',
  'backups',
  'hypervisor',
  'watchdog_enabled',
  'tags',
  'host_uuid',
  'has_user_data',
]

/** An instance's keys under the real naming, with the fields of later versions (none recorded). */
export const LATER_INSTANCE_KEYS = [
  ...INSTANCE_KEYS.slice(0, INSTANCE_KEYS.indexOf('region') + 1),
  'site_type',
  ...INSTANCE_KEYS.slice(INSTANCE_KEYS.indexOf('region') + 1),
  'placement_group',
  'disk_encryption',
  'lke_cluster_id',
  'capabilities',
  'interface_generation',
  'maintenance_policy',
  'locks',
]

/** An event's keys, in the order the real service sends them. */
export const EVENT_KEYS = [
  'id',
  'created',
  'seen',
  'read',
  'percent_complete',
  'time_remaining',
  'rate',
  'duration',
  'action',
  'username',
  'entity',
  'status',
  'secondary_entity',
  'message',
]
