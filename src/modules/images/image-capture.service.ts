import { badRequest } from '../../common/errors.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import type { Actor } from '../auth/actor.ts'
import { findAccountDisk } from '../compute/disks/disks.repository.ts'
import { lockAccountInstance } from '../compute/instances/instances.repository.ts'
import { recordEvent } from '../events/events.repository.ts'
import { assertEntityGrant, assertGlobalGrant, grantToCreator } from '../grants/authorize.ts'
import * as repo from './images.repository.ts'
import type { CaptureImageBody, Image } from './images.schemas.ts'
import { toImage } from './images.service.ts'

/** Only these filesystems can be captured (api-facts 4.3, from the product's capture guide). */
const CAPTURABLE = new Set(['ext3', 'ext4'])

/**
 * Captures a private image from a disk of one of the account's instances. The image comes back
 * `creating` at once, with the disk's size; a job makes it `available` and finishes the
 * `disk_imagize` event recorded here on the instance, with the image as secondary entity.
 */
export async function captureImage(
  db: Db,
  clock: Clock,
  actor: Actor,
  body: CaptureImageBody,
): Promise<Image> {
  return inTransaction(db, async (trx) => {
    await assertGlobalGrant(trx, actor, 'add_images')
    const disk = await findAccountDisk(trx, actor.accountId, body.disk_id)
    // Another account's disk is as unknown as one that does not exist.
    if (disk === undefined) throw badRequest('Disk not found', 'disk_id')
    const instance = await lockAccountInstance(trx, actor.accountId, disk.instance_id)
    if (instance === undefined) throw badRequest('Disk not found', 'disk_id')
    await assertEntityGrant(trx, actor, 'compute', instance.id, 'read_write')
    if (!CAPTURABLE.has(disk.filesystem)) {
      throw badRequest('Only ext3 and ext4 disks can be captured as images', 'disk_id')
    }
    if (disk.status !== 'ready') throw badRequest('Disk is not ready', 'disk_id')

    const now = nowTimestamp(clock)
    const image = await repo.insertImage(trx, {
      slug: null,
      account_id: actor.accountId,
      label: body.label ?? disk.label,
      description: body.description === undefined ? '' : body.description,
      created_by: actor.user.username,
      type: 'manual',
      status: 'creating',
      size: disk.size,
      capabilities: JSON.stringify(body.cloud_init ? ['cloud-init'] : []),
      is_public: false,
      deprecated: false,
      vendor: null,
      eol: null,
      expiry: null,
      created: now,
      updated: now,
      creator_user_id: actor.user.id,
      region: instance.region,
    })
    await grantToCreator(trx, actor, 'image', image.id)
    const eventId = await recordEvent(trx, {
      accountId: actor.accountId,
      user: actor.user,
      action: 'disk_imagize',
      entity: {
        type: 'compute',
        id: instance.id,
        label: instance.label,
        url: `/v4/compute/instances/${instance.id}`,
      },
      secondary: {
        type: 'image',
        id: repo.wireImageId(image),
        label: image.label,
        url: `/v4/images/${repo.wireImageId(image)}`,
      },
      status: 'started',
      percentComplete: 0,
      grant: { type: 'compute', id: instance.id },
      created: now,
    })
    await enqueueJob(trx, {
      kind: 'image-capture',
      payload: { imageId: image.id, eventId, started: now },
      runAt: now,
      created: now,
    })
    return toImage(image)
  })
}
