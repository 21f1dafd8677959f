import { expireUploadLease } from '../../modules/images/image-uploads.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const imageUploadLease: JobHandler<'image-upload-lease'> = (context, payload) =>
  expireUploadLease(context.db, context.blobs, context.clock, payload.imageId)
