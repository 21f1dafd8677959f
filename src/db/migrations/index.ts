import type { Migration } from 'kysely/migration'
import * as platform from './2026_11_21_0001_platform.ts'
import * as computeVpcs from './2026_11_21_0002_compute_vpcs.ts'
import * as images from './2026_11_21_0003_images.ts'
import * as profile from './2026_11_21_0004_profile.ts'
import * as login from './2026_11_23_0101_login.ts'
import * as control from './2026_11_23_0201_control.ts'
import * as listIndexes from './2026_11_23_0301_list_indexes.ts'
import * as uploadLeases from './2026_11_23_0302_upload_leases.ts'
import * as eventCounts from './2026_11_23_0303_event_counts.ts'
import * as changeCounters from './2026_11_23_0401_change_counters.ts'
import * as accountScriptsLoadbalancers from './2026_11_23_0501_account_scripts_loadbalancers.ts'
import * as volumesDomains from './2026_11_23_0601_volumes_domains.ts'
import * as abuseLimits from './2026_11_23_0701_abuse_limits.ts'
import * as journalFaults from './2026_11_23_0701_journal_faults.ts'
import * as eventTallies from './2026_11_23_0801_event_tallies.ts'
import * as journalOutcome from './2026_11_23_0804_journal_outcome.ts'
import * as journalBodies from './2026_11_26_1010_journal_bodies.ts'
import * as eventRangeTallies from './2026_11_26_1030_event_range_tallies.ts'
import * as catalogueNotify from './2026_11_26_1406_catalogue_notify.ts'
import * as imageListOrder from './2026_11_26_1505_image_list_order.ts'
import * as journalBatches from './2026_11_26_1506_journal_batches.ts'
import * as listCounters from './2026_11_26_1910_list_counters.ts'
import * as eventTallyLockOrder from './2026_11_27_0045_event_tally_lock_order.ts'
import * as vpcListCounter from './2026_11_27_0500_vpc_list_counter.ts'
import * as eventPageVersions from './2026_11_27_0900_event_page_versions.ts'
import * as talliesWithoutRowid from './2026_11_27_1200_tallies_without_rowid.ts'
import * as eventTalliesAtCommit from './2026_11_27_1500_event_tallies_at_commit.ts'
import * as imageTags from './2026_11_29_2000_image_tags.ts'

/**
 * Every migration, in order. A static list rather than a folder scan, so the set is explicit and
 * works the same from `src/` and from the compiled `dist/`. Released migrations are never edited.
 */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_platform': platform,
  '2026_11_21_0002_compute_vpcs': computeVpcs,
  '2026_11_21_0003_images': images,
  '2026_11_21_0004_profile': profile,
  '2026_11_23_0101_login': login,
  '2026_11_23_0201_control': control,
  '2026_11_23_0301_list_indexes': listIndexes,
  '2026_11_23_0302_upload_leases': uploadLeases,
  '2026_11_23_0303_event_counts': eventCounts,
  '2026_11_23_0401_change_counters': changeCounters,
  '2026_11_23_0501_account_scripts_loadbalancers': accountScriptsLoadbalancers,
  '2026_11_23_0601_volumes_domains': volumesDomains,
  '2026_11_23_0701_abuse_limits': abuseLimits,
  '2026_11_23_0701_journal_faults': journalFaults,
  '2026_11_23_0801_event_tallies': eventTallies,
  '2026_11_23_0804_journal_outcome': journalOutcome,
  '2026_11_26_1010_journal_bodies': journalBodies,
  '2026_11_26_1030_event_range_tallies': eventRangeTallies,
  '2026_11_26_1406_catalogue_notify': catalogueNotify,
  '2026_11_26_1505_image_list_order': imageListOrder,
  '2026_11_26_1506_journal_batches': journalBatches,
  '2026_11_26_1910_list_counters': listCounters,
  '2026_11_27_0045_event_tally_lock_order': eventTallyLockOrder,
  '2026_11_27_0500_vpc_list_counter': vpcListCounter,
  '2026_11_27_0900_event_page_versions': eventPageVersions,
  '2026_11_27_1200_tallies_without_rowid': talliesWithoutRowid,
  '2026_11_27_1500_event_tallies_at_commit': eventTalliesAtCommit,
  '2026_11_29_2000_image_tags': imageTags,
}
