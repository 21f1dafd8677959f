import { finishCapture } from '../../modules/images/image-capture.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const imageCapture: JobHandler<'image-capture'> = (context, payload) =>
  finishCapture(
    context.db,
    context.clock,
    payload,
    async () => (await context.workFails?.('image_capture')) ?? false,
  )
