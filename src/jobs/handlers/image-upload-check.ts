import { advanceUploadCheck } from '../../modules/images/image-uploads.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const imageUploadCheck: JobHandler<'image-upload-check'> = (context, payload) =>
  advanceUploadCheck(context, payload, async () => (await context.workFails?.('image_upload')) ?? false)
