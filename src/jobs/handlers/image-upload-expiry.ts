import { expireUpload } from '../../modules/images/image-uploads.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const imageUploadExpiry: JobHandler<'image-upload-expiry'> = (context, payload) =>
  expireUpload(context.db, context.blobs, context.clock, payload.imageId)
