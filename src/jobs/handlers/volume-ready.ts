import { finishVolumeWork } from '../../modules/volumes/volume-work.service.ts'
import type { JobHandler } from '../job-kinds.ts'

export const volumeReady: JobHandler<'volume-ready'> = (context, payload) =>
  finishVolumeWork(context.db, context.clock, payload)
