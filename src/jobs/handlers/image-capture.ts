import { finishCapture } from '../../modules/images/images.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const imageCapture: JobHandler<'image-capture'> = (context, payload) =>
  finishCapture(context.db, context.clock, payload)
