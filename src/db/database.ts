import type { JobTable } from '../jobs/jobs.table.ts'
import type { AccountTable } from '../modules/accounts/accounts.table.ts'
import type { AuthorizedAppTable } from '../modules/auth/authorized-apps.table.ts'
import type { TokenTable } from '../modules/auth/tokens.table.ts'
import type { ConfigTable } from '../modules/compute/configs/configs.table.ts'
import type { DiskTable } from '../modules/compute/disks/disks.table.ts'
import type {
  InstanceTable,
  Ipv4FreeTable,
  Ipv4PoolTable,
} from '../modules/compute/instances/instances.table.ts'
import type { InterfaceRangeTable, InterfaceTable } from '../modules/compute/interfaces/interfaces.table.ts'
import type { ScriptTable } from '../modules/compute/scripts/scripts.table.ts'
import type { ComputeTypeTable } from '../modules/compute/types/types.table.ts'
import type { ControlFaultTable } from '../modules/control/faults/faults.table.ts'
import type {
  ControlJournalBatchesTable,
  ControlJournalBodiesTable,
  ControlJournalTable,
} from '../modules/control/journal/journal.table.ts'
import type { ControlSnapshotTable } from '../modules/control/snapshots.table.ts'
import type { DomainTable } from '../modules/domains/domains.table.ts'
import type { DomainRecordTable } from '../modules/domains/records/records.table.ts'
import type { EventTable } from '../modules/events/events.table.ts'
import type { EntityGrantTable, GlobalGrantTable } from '../modules/grants/grants.table.ts'
import type { ImageTable } from '../modules/images/images.table.ts'
import type { LoadBalancerTable } from '../modules/loadbalancers/loadbalancers.table.ts'
import type {
  LoginSessionTable,
  LoginThrottleTable,
  OAuthCodeTable,
  OAuthRefreshTokenTable,
  UserPasswordTable,
} from '../modules/login/login.tables.ts'
import type { OAuthClientTable } from '../modules/oauth-clients/oauth-clients.table.ts'
import type { TrustedDeviceTable } from '../modules/profile/devices/devices.table.ts'
import type { LoginTable } from '../modules/profile/logins/logins.table.ts'
import type { PhoneCodeSendTable, PhoneVerificationTable } from '../modules/profile/phone/phone.table.ts'
import type { UserPreferencesTable } from '../modules/profile/preferences/preferences.table.ts'
import type {
  SecurityAnswerTable,
  SecurityQuestionTable,
} from '../modules/profile/security-questions/security-questions.table.ts'
import type { SshKeyTable } from '../modules/profile/ssh-keys/ssh-keys.table.ts'
import type { UserTfaTable } from '../modules/profile/two-factor/two-factor.table.ts'
import type { RegionAvailabilityTable, RegionTable } from '../modules/regions/regions.table.ts'
import type { UserTable } from '../modules/users/users.table.ts'
import type { VolumeTable } from '../modules/volumes/volumes.table.ts'
import type { SubnetTable } from '../modules/vpcs/subnets/subnets.table.ts'
import type { AccountLimitTable, VpcTable } from '../modules/vpcs/vpcs.table.ts'
import type { MetaTable } from './meta.table.ts'

/** Every table, from the modules' `*.table.ts` files. */
export interface Database {
  meta: MetaTable
  accounts: AccountTable
  users: UserTable
  authorized_apps: AuthorizedAppTable
  tokens: TokenTable
  global_grants: GlobalGrantTable
  entity_grants: EntityGrantTable
  events: EventTable
  regions: RegionTable
  region_availability: RegionAvailabilityTable
  images: ImageTable
  jobs: JobTable
  ssh_keys: SshKeyTable
  security_questions: SecurityQuestionTable
  security_answers: SecurityAnswerTable
  user_tfa: UserTfaTable
  phone_verifications: PhoneVerificationTable
  phone_code_sends: PhoneCodeSendTable
  user_preferences: UserPreferencesTable
  trusted_devices: TrustedDeviceTable
  logins: LoginTable
  account_limits: AccountLimitTable
  vpcs: VpcTable
  subnets: SubnetTable
  compute_types: ComputeTypeTable
  compute_instances: InstanceTable
  compute_ipv4_pools: Ipv4PoolTable
  compute_ipv4_free: Ipv4FreeTable
  compute_disks: DiskTable
  compute_configs: ConfigTable
  compute_interfaces: InterfaceTable
  compute_interface_ranges: InterfaceRangeTable
  oauth_clients: OAuthClientTable
  user_passwords: UserPasswordTable
  oauth_codes: OAuthCodeTable
  oauth_refresh_tokens: OAuthRefreshTokenTable
  login_sessions: LoginSessionTable
  login_throttles: LoginThrottleTable
  control_snapshots: ControlSnapshotTable
  control_journal: ControlJournalTable
  control_journal_bodies: ControlJournalBodiesTable
  control_journal_batches: ControlJournalBatchesTable
  control_faults: ControlFaultTable
  loadbalancers: LoadBalancerTable
  scripts: ScriptTable
  volumes: VolumeTable
  domains: DomainTable
  domain_records: DomainRecordTable
}
